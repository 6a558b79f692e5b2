/**
 * The reference for the warm paths: bare Fastify routes answering the same bytes as Stadtdaten.
 * Argument 1 is the manifest (manifest.ts): every distinct path becomes a plain route, and a URL
 * with a query string answers its own body and headers.
 */
import Fastify from 'fastify';
import { need } from '../need.ts';
import { readManifest } from './manifest.ts';

const [manifestFile, port] = process.argv.slice(2);
const answers = readManifest(manifestFile);
const app = Fastify({ logger: false });
// Keys that are not paths (`gzip <url>`, `trust <url>`) belong to bare-node.ts's rows.
const urls = [...answers.keys()].filter((u) => u.startsWith('/'));
for (const path of new Set(urls.map((u) => need(u.split('?')[0], `the path of ${u}`)))) {
  app.get(path, async (req, reply) => {
    const a = need(answers.get(req.url) ?? answers.get(path), `an answer for ${req.url}`);
    return reply.headers(a.headers).send(a.body);
  });
}
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');
