import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Upstream fault classes, as FakeUpstream interceptors: every upstream answers this way at once.
 * Each is a way real upstreams fail (a 500, a hung socket, a proxy's HTML error page, a cut-off or
 * endless body, a redirect to somewhere else).
 */
export type Fault = (req: IncomingMessage, res: ServerResponse) => void;

const HTML_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><hr>nginx</body></html>';

export const FAULTS: Record<string, Fault> = {
  http500: (_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
  },
  hang: () => {
    /* never answers: the socket stays open until the client gives up */
  },
  malformed: (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1, 2, {"broken": tru');
  },
  truncated: (_req, res) => {
    // Declares 100 kB, sends 10 bytes, then the connection dies.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{"result":');
    setTimeout(() => res.socket?.destroy(), 50);
  },
  oversize: (_req, res) => {
    // 300 MB announced and streamed: over every per-source cap.
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < 300 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  },
  slowDrip: (_req, res) => {
    // One byte every 500 ms: headers arrive, the body never finishes in time.
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 500);
    res.on('close', () => clearInterval(timer));
  },
  htmlErrorPage: (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' }).end(HTML_PAGE);
  },
  htmlAs200: (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(HTML_PAGE);
  },
  crossHostRedirect: (req, res) => {
    res.writeHead(302, { location: `http://198.51.100.7${req.url ?? '/'}` }).end();
  },
};
