import { get, type ClientRequest, type IncomingMessage } from 'node:http';

/** One Server-Sent Event as a client parses it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * A text/event-stream client over real HTTP (fetch), parsing events as the bytes arrive: `next()`
 * resolves with the next event when it has come in, so a test waits for an event (under its test
 * timeout), never for a fixed time.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  /** Comment lines (`: hb`) and `retry` values seen. */
  readonly comments: string[] = [];
  retry: number | null = null;
  ended = false;
  /** The body of an answer that is not a stream (a problem document). */
  text = '';
  private taken = 0;
  private wake: (() => void) | null = null;

  readonly res: IncomingMessage;
  private readonly req: ClientRequest;
  private constructor(res: IncomingMessage, req: ClientRequest) {
    this.res = res;
    this.req = req;
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const v = this.res.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  /** node:http rather than fetch: closing must close the connection at once, as a browser tab does. */
  static open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    return new Promise((resolve, reject) => {
      const req = get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
      req.once('error', reject);
      req.once('response', (res) => {
        const r = new SseReader(res, req);
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk: string) => {
          if (r.status !== 200) {
            r.text += chunk;
            return;
          }
          buf += chunk;
          let end: number;
          while ((end = buf.indexOf('\n\n')) >= 0) {
            r.parse(buf.slice(0, end));
            buf = buf.slice(end + 2);
          }
        });
        const done = () => {
          r.ended = true;
          r.wakeUp();
        };
        res.once('end', done);
        res.once('close', done);
        res.once('error', done);
        resolve(r);
      });
    });
  }

  private wakeUp() {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private parse(block: string) {
    const e: SseEvent = { id: null, event: 'message', data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line);
      else if (line.startsWith('retry: ')) this.retry = Number(line.slice(7));
      else if (line.startsWith('id: ')) e.id = line.slice(4);
      else if (line.startsWith('event: ')) e.event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) {
      e.data = data.join('\n');
      this.events.push(e);
    }
    this.wakeUp();
  }

  /** The next event not yet taken; rejects when the stream ends first. */
  async next(): Promise<SseEvent> {
    while (this.taken >= this.events.length) {
      if (this.ended) throw new Error('stream ended');
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.events[this.taken++]!;
  }

  /** Resolves once a comment line has come in. */
  async comment(): Promise<string> {
    while (this.comments.length === 0) {
      if (this.ended) throw new Error('stream ended');
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.comments[0]!;
  }

  /** Resolves when the server ends the stream (or, for a problem, its body is in). */
  async end(): Promise<void> {
    while (!this.ended) await new Promise<void>((r) => (this.wake = r));
  }

  close() {
    this.req.destroy();
  }
}
