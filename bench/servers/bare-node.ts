/**
 * The Node HTTP stack's own ceiling: node:http with no framework, answering the same bytes as
 * Stadtdaten and bare Fastify from the same manifest (see bare-fastify.ts). It shows how much of
 * the distance to nginx is Node's HTTP server itself, which no route handler can remove.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { need } from '../need.ts';

const [manifestFile, port] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(need(manifestFile, 'argument 1 (the manifest file)'), 'utf8')) as Record<string, string>;
const bodies = new Map<string, Buffer>(Object.entries(manifest).map(([url, file]) => [url, readFileSync(file)]));
const plain = new Map<string, Buffer>([...bodies].map(([url, body]) => [need(url.split('?')[0], `the path of ${url}`), body]));
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const body = bodies.get(url) ?? plain.get(url.split('?')[0] ?? url);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, ['content-type', 'application/json; charset=utf-8', 'content-length', String(body.length)]);
  res.end(body);
});
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
