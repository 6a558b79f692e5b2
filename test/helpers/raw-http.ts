import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses one HTTP/1.1 response (Content-Length framed, as every answer here is) from raw text. */
export function parseRaw(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number((statusLine ?? '').split(' ')[1]), headers, body: split < 0 ? '' : text.slice(split + 4) };
}

/** Sends bytes exactly as given (no client library would send a broken request) and reads until the server closes or `waitMs`. */
export function rawRequest(port: number, bytes: string | Buffer, waitMs = 3000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks).toString('utf8')));
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (c) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString('utf8');
      const r = parseRaw(text);
      const len = Number(r.headers['content-length'] ?? NaN);
      if (Number.isFinite(len) && Buffer.byteLength(r.body) >= len) finish();
    });
    socket.on('end', finish);
    socket.on('error', (err) => (chunks.length ? finish() : reject(err)));
    socket.write(bytes);
  });
}

/** A connection that sends a request line and then one header byte at a time, never finishing. */
export function slowClient(port: number, intervalMs: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (c) => (received += c.toString('utf8')));
  socket.write('GET /api/v1/cities HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write('a');
  }, intervalMs);
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.on('error', () => {});
  });
  return { socket, closed };
}
