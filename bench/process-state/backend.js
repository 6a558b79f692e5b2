/**
 * The application behind the `proxy` state's front (bench/process-state/server.js), in a process of its
 * own: answers of the shapes Stadtdaten sends besides a HIT, so that the front's Node internals see them
 * all: JSON with varying header sets and statuses, a chunked CSV, a gzip stream and a short
 * Server-Sent Events stream. Exits with its parent.
 */
import { createServer } from 'node:http';
import { createGzip } from 'node:zlib';
import { setInterval, clearInterval } from 'node:timers';
import { URL } from 'node:url';

const port = Number(process.argv[2]);

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://backend');
  const i = Number(url.searchParams.get('i') ?? 0);
  const kind = url.pathname.split('/')[2];
  if (kind === 'json') {
    const headers = { 'content-type': 'application/json', [`x-h${i % 13}`]: String(i), 'cache-control': 'no-store' };
    if (i % 3 === 0) headers.vary = 'Accept';
    if (i % 5 === 0) headers.link = '</next>; rel="next"';
    res.writeHead(i % 7 === 0 ? 404 : 200, headers);
    res.end(JSON.stringify({ i, list: Array.from({ length: i % 50 }, (_, k) => ({ k })) }));
  } else if (kind === 'chunked') {
    res.writeHead(200, { 'content-type': 'text/csv' });
    for (let k = 0; k < 20; k++) res.write(`${k},${i},abc\n`);
    res.end();
  } else if (kind === 'gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const gzip = createGzip();
    gzip.pipe(res);
    gzip.end(JSON.stringify({ text: 'y'.repeat(20_000 + i) }));
  } else if (kind === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let n = 0;
    const timer = setInterval(() => {
      res.write(`id: ${n}\ndata: {"n":${n}}\n\n`);
      if (++n === 10) {
        clearInterval(timer);
        res.end();
      }
    }, 5);
  } else {
    res.writeHead(404);
    res.end();
  }
}).listen(port, '127.0.0.1', () => process.send?.('ready'));

process.on('disconnect', () => process.exit());
