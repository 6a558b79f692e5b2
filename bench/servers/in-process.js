/**
 * The bench's in-process reference (bench/run.ts, row `in-process`): a bare node:http server inside
 * the Stadtdaten process (loaded with `--import` by the bench only), answering the HIT's bytes from
 * the manifest as bench/servers/bare-node.ts does. Against bare node:http in a process of its own it
 * reads what the application around Node's HTTP path costs that path (a larger heap, inline caches
 * that have seen the whole application), apart from what the HIT lane itself adds.
 * Plain JavaScript because the service runs compiled JavaScript; the manifest is read at the first request,
 * since the bench writes it from the service's own answers after start.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const port = Number(process.env.BENCH_IN_PROCESS_PORT);
const manifestFile = process.env.BENCH_IN_PROCESS_MANIFEST;
let answers = null;

function load() {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  return new Map(
    Object.entries(manifest).map(([url, m]) => {
      const body = readFileSync(m.file);
      // As bench/servers/manifest.ts: with its Content-Length, not chunked.
      return [url, { body, rawHeaders: [...m.headers.flat(), 'content-length', String(body.length)] }];
    }),
  );
}

// NODE_OPTIONS' --import runs in the service's worker threads too (the history store's): only the main thread serves.
if (port && manifestFile && isMainThread) {
  const server = createServer((req, res) => {
    answers ??= load();
    const a = answers.get(req.url ?? '/');
    if (!a) {
      answers = null;
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, a.rawHeaders);
    res.end(a.body);
  });
  server.listen(port, '127.0.0.1');
  // Not a reason to stay up: the service's own shutdown decides.
  server.unref();
}
