/**
 * A bare node:http server (bench/process-state.ts) that first puts its process in a state, then answers
 * every request with the same prepared answer: a 1,827-byte JSON body with the eight headers and the
 * Content-Length of Stadtdaten's weather HIT. PROCESS_STATE:
 * - `none`: nothing before (the reference);
 * - `heap`: 400,000 small objects kept alive (~40 MB of old generation, as an application's caches);
 * - `fastify`: a Fastify app on another port served 6,000 requests on 30 routes of its own first, so
 *   Node's HTTP and stream internals have run for another framework's answers (other header shapes);
 * - `headers`: nothing before, but each request's header object is read (the HIT lane reads Accept and others);
 * - `server`: nothing before, but the server is Stadtdaten's (src/http/node-server.ts, compiled in dist/).
 * - `proxy`: the process is a front: it answers the HIT itself and forwards every other request to an
 *   application in another process (backend.js), and first forwarded 1,800 answers of that application's
 *   shapes (JSON, chunked CSV, a gzip stream, SSE; driver.js, also in a process of its own). What a HIT
 *   front in front of the application would pay for the answers it passes on (bench/README.md, "lane").
 * Plain JavaScript on plain Node, so no loader adds to the process.
 */
import { Buffer } from 'node:buffer';
import { createServer, request, Agent } from 'node:http';
import { fork } from 'node:child_process';
import { URL } from 'node:url';

const port = Number(process.argv[2]);
const state = process.env.PROCESS_STATE ?? 'none';
const body = Buffer.from(JSON.stringify({ data: { text: 'x'.repeat(1_795) } }));
const headers = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', 'ETag, Link, Deprecation, Cache-Status, Retry-After, Content-Type, RateLimit, RateLimit-Policy'],
  ['x-content-type-options', 'nosniff'],
  ['cache-control', 'public, max-age=600, stale-while-revalidate=7200, stale-if-error=86400'],
  ['vary', 'Accept, accept-encoding'],
  ['cache-status', 'stadtdaten; hit'],
  ['etag', '"Zt8T73u6eI9-GpOegeLvAox_s9L"'],
  ['content-type', 'application/json; charset=utf-8'],
  ['content-length', String(body.length)],
].flat();

const kept = [];
if (state === 'heap') for (let i = 0; i < 400_000; i++) kept.push({ id: i, name: `n${i}`, tags: [i, i + 1], meta: { a: i % 7 } });
if (state === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  for (let i = 0; i < 30; i++)
    app.get(`/r${i}`, async (_req, reply) => {
      reply.header(`x-${i}`, String(i)).header('cache-control', 'no-store');
      return { i, list: Array.from({ length: i }, (_, k) => ({ k })) };
    });
  await app.listen({ port: port + 100, host: '127.0.0.1' });
  for (let round = 0; round < 200; round++)
    for (let i = 0; i < 30; i++)
      await globalThis.fetch(`http://127.0.0.1:${port + 100}/r${i}?x=${round}`, { headers: { [`x-h${i % 5}`]: 'v' } }).then((r) => r.text());
}

// `proxy`: every request under /p/ goes on to the backend, its answer streamed back with the backend's head.
let backend = null;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const forward = (req, res) => {
  const upstream = request({ host: '127.0.0.1', port: port + 200, path: req.url, method: req.method, headers: req.headers, agent }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.rawHeaders);
    r.pipe(res);
  });
  upstream.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
};

const answer = (req, res) => {
  if (backend && req.url.startsWith('/p/')) return forward(req, res);
  // `headers`: the request's header object is built (Node builds it at the first read), as the HIT lane reads it.
  if (state === 'headers') void req.headers.accept;
  res.writeHead(200, headers);
  res.end(body);
};
// `server`: the same answer through Stadtdaten's own server (its timeouts, connection cap, drain-aware response class).
const server =
  state === 'server'
    ? await import('../../dist/src/http/node-server.js').then(({ createHttpServer, DEFAULT_LIMITS }) => createHttpServer(answer, DEFAULT_LIMITS))
    : createServer(answer);
if (state === 'proxy') {
  backend = fork(new URL('./backend.js', import.meta.url), [String(port + 200)]);
  await new Promise((r) => backend.once('message', r));
}
server.listen(port, '127.0.0.1', async () => {
  if (state === 'proxy') {
    const driver = fork(new URL('./driver.js', import.meta.url), [`http://127.0.0.1:${port}`]);
    await new Promise((r) => driver.once('message', r));
    driver.kill();
  }
  process.send?.(`ready ${kept.length}`);
});
