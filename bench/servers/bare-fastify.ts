/**
 * The ceiling for the HIT benchmarks: bare Fastify routes answering the same bytes as Stadtdaten.
 * Argument 1 is a manifest `{ "<url as requested>": "<file with the body>" }`; every distinct path
 * becomes a plain route, and a URL with a query string answers its own body.
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { need } from '../need.ts';

const [manifestFile, port] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(need(manifestFile, 'argument 1 (the manifest file)'), 'utf8')) as Record<string, string>;
const bodies = new Map<string, Buffer>(Object.entries(manifest).map(([url, file]) => [url, readFileSync(file)]));
const app = Fastify({ logger: false });
for (const path of new Set([...bodies.keys()].map((u) => need(u.split('?')[0], `the path of ${u}`)))) {
  const plain = bodies.get(path);
  app.get(path, async (req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(bodies.get(req.url) ?? plain));
}
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');
