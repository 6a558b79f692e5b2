import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response read off a raw connection. */
export interface WireResponse {
  status: number;
  /** Header names in lower case, in the order sent (names may repeat). */
  headers: [string, string][];
  body: string;
}

export function header(r: WireResponse, name: string): string | undefined {
  return r.headers.find(([k]) => k === name)?.[1];
}

/**
 * A client connection that writes bytes as given and reads responses off the wire, for what
 * fetch cannot show: pipelined requests, heads split over packets, the server ending the
 * connection. Bodies are read by Content-Length (every answer here has one or none).
 */
export class RawConnection {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  readonly socket: Socket;

  private constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  static async open(url: string): Promise<RawConnection> {
    const c = new RawConnection(Number(new URL(url).port));
    await new Promise<void>((resolve, reject) => {
      c.socket.once('connect', resolve);
      c.socket.once('error', reject);
    });
    return c;
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  private async more(timeoutMs: number): Promise<void> {
    if (this.closed) throw new Error('connection closed before the response was complete');
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no response in time')), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  write(bytes: string | Buffer) {
    this.socket.write(bytes);
  }

  /** The next response, HEAD answers read without a body. */
  async read(opts: { head?: boolean; timeoutMs?: number } = {}): Promise<WireResponse> {
    const timeoutMs = opts.timeoutMs ?? 5000;
    let end: number;
    while ((end = this.buf.indexOf('\r\n\r\n')) < 0) await this.more(timeoutMs);
    const lines = this.buf.toString('latin1', 0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(lines[0] ?? '')?.[1]);
    const headers = lines.slice(1).map((l): [string, string] => {
      const i = l.indexOf(':');
      return [l.slice(0, i).toLowerCase(), l.slice(i + 1).trim()];
    });
    const length = opts.head ? 0 : Number(headers.find(([k]) => k === 'content-length')?.[1] ?? 0);
    while (this.buf.length < end + 4 + length) await this.more(timeoutMs);
    const body = this.buf.toString('utf8', end + 4, end + 4 + length);
    this.buf = this.buf.subarray(end + 4 + length);
    return { status, headers, body };
  }

  /** Resolves when the server has closed the connection. */
  async closedByServer(timeoutMs = 5000): Promise<void> {
    while (!this.closed) await this.more(timeoutMs).catch(() => undefined);
  }

  close() {
    this.socket.destroy();
  }
}

export function getRequest(path: string, headers: Record<string, string> = {}, version = '1.1'): string {
  const lines = [`GET ${path} HTTP/${version}`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
