import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { notModified, refusal, type HitLane, type LaneAnswer, type LaneHeaders } from './hit-lane.ts';
import { parsePlainGet, MAX_HEAD_BYTES, type PlainGet } from './request-head.ts';
import type { LimitState } from './rate-limit.ts';

const HEAD_END = Buffer.from('\r\n\r\n');

export interface SocketLaneOptions {
  /** Idle time after which a keep-alive connection the lane holds is closed (as Node's keepAliveTimeout). */
  keepAliveTimeoutMs: number;
}

/**
 * The HIT lane on the connection itself. Node's HTTP server costs a fresh cache HIT more than
 * everything else together: a request and a response object, header objects, and several
 * callbacks per request. Under 64 connections it reached half of nginx's rate on this project's
 * machines, whatever the route did (bench/README.md). This lane reads the bytes of each new
 * connection first: while every request on it is a plain GET for a URL the HIT lane holds
 * (http/hit-lane.ts) with a fresh entry, it writes the prepared response bytes straight to the
 * socket, with the headers Node would write. At the first request that is anything else (another
 * URL, a stale entry, a partial or unusual head), it hands the connection, with the unread bytes,
 * to Node's HTTP server, which serves it from then on as it serves any connection. The lane never
 * refuses or rewrites a request: whatever it declines reaches Node's parser unchanged.
 */
export class SocketLane {
  private readonly held = new Set<Socket>();
  private closing = false;
  private readonly keepAlive: string;
  private dateSecond = -1;
  private dateLines = '';

  constructor(
    private readonly lane: HitLane,
    private readonly toNode: (socket: Socket) => void,
    private readonly opts: SocketLaneOptions,
  ) {
    this.keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(opts.keepAliveTimeoutMs / 1000)}\r\n\r\n`;
  }

  /** Puts the lane in front of a Node HTTP server's connections, and ends its idle ones when the server closes. */
  static attach(server: Server, lane: HitLane, opts: SocketLaneOptions): SocketLane | null {
    const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
    const node = listeners[0];
    // Node's server reads connections through one listener; anything else is a setup this lane does not know.
    if (listeners.length !== 1 || node === undefined) return null;
    const socketLane = new SocketLane(lane, (socket) => node.call(server, socket), opts);
    server.removeListener('connection', node);
    server.on('connection', (socket: Socket) => socketLane.accept(socket));
    const close = server.close.bind(server);
    server.close = ((done?: (err?: Error) => void) => {
      socketLane.shutdown();
      return close(done);
    }) as Server['close'];
    return socketLane;
  }

  /** Connections the lane holds right now. */
  get size(): number {
    return this.held.size;
  }

  private accept(socket: Socket) {
    if (this.closing) return this.toNode(socket);
    this.held.add(socket);
    let waiting = false;
    let ended = false;
    const release = (rest: Buffer) => {
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.removeListener('timeout', onTimeout);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.setTimeout(0);
      this.held.delete(socket);
      this.toNode(socket);
      // Node's server reads through a 'data' listener until its parser consumes the socket: the bytes already read go to it that way, before any later ones.
      if (rest.length > 0) socket.emit('data', rest);
      if (ended) socket.emit('end');
    };
    /** Pauses the connection (its answer or the client's reading is pending) and returns what goes on where it stopped. */
    const hold = (chunk: Buffer, next: number, joined: boolean) => {
      waiting = true;
      socket.pause();
      return () => {
        waiting = false;
        socket.resume();
        feed(chunk, next, joined);
        if (!waiting && ended) socket.end();
      };
    };
    /** `joined`: the chunk begins with a head the previous read left unfinished. */
    const feed = (chunk: Buffer, from: number, joined: boolean) => {
      let pos = from;
      while (pos < chunk.length) {
        // The server is closing: requests not yet answered are not taken (as Node's server ends its idle connections); clients retry a GET elsewhere.
        if (this.closing) return void socket.end();
        const end = chunk.indexOf(HEAD_END, pos);
        if (end < 0 && !joined && pos > 0 && chunk.length - pos < MAX_HEAD_BYTES) {
          // Pipelined requests split at a read boundary: the head is joined with the next read, once; anything slower is Node's (its header timeout).
          partial = Buffer.from(chunk.subarray(pos));
          return;
        }
        const head = end < 0 ? null : parsePlainGet(chunk, pos, end);
        const found = head === null ? null : this.lane.find('GET', head.url, head.headers);
        if (head === null || found === null) return release(chunk.subarray(pos));
        const next = end + HEAD_END.length;
        let later: (() => void) | null = null;
        let flushed = true;
        let answered = false;
        this.lane.admit(socket.remoteAddress, (limit) => {
          answered = true;
          if (!socket.destroyed) flushed = socket.write(this.response(found, head, limit));
          if (later === null) return;
          // Answered after the loop let go (a shared rate limit): go on here, or after the client has read.
          if (flushed) later();
          else socket.once('drain', later);
        });
        if (!answered) {
          // A shared (Redis) rate limit answers later.
          later = hold(chunk, next, joined);
          return;
        }
        if (!flushed) {
          // A client that sends requests without reading the answers waits, as Node's server makes it wait, instead of filling memory.
          socket.once('drain', hold(chunk, next, joined));
          return;
        }
        pos = next;
        joined = false;
      }
    };
    let partial: Buffer | null = null;
    const onData = (chunk: Buffer) => {
      if (partial === null) return feed(chunk, 0, false);
      const rest = Buffer.concat([partial, chunk]);
      partial = null;
      feed(rest, 0, true);
    };
    // Node's server allows half-open connections: a client that has sent its last request gets its answers, then the end.
    const onEnd = () => {
      ended = true;
      if (!waiting) socket.end();
    };
    const onTimeout = () => socket.destroy();
    const onError = () => socket.destroy();
    const onClose = () => this.held.delete(socket);
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('timeout', onTimeout);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.setTimeout(this.opts.keepAliveTimeoutMs);
  }

  /** The server is closing: no new requests on held connections, which end once their answers are written. */
  shutdown() {
    this.closing = true;
    for (const socket of this.held) {
      if (!socket.isPaused()) socket.end();
      // A client that does not close its side in time is cut off.
      socket.setTimeout(1000);
    }
  }

  private response(a: LaneAnswer, head: PlainGet, limit: LimitState | null): Buffer {
    const headers = this.lane.headersOf(a, head.headers);
    const limitLines = limit === null ? '' : headerLines(this.lane.limitHeaders(limit));
    if (limit?.exceeded) {
      const { body, headers: problem } = refusal(limit);
      const lines = headerLines(headers.cors) + limitLines + headerLines(Object.entries(problem).flat()) + `content-length: ${Buffer.byteLength(body)}\r\n`;
      return Buffer.concat([Buffer.from(`HTTP/1.1 429 Too Many Requests\r\n${lines}${this.tail()}`, 'latin1'), Buffer.from(body)]);
    }
    if (notModified(a, head.headers['if-none-match'])) {
      a.target.observe(304, (performance.now() - a.started) / 1000);
      return Buffer.from(`HTTP/1.1 304 Not Modified\r\n${limitLines}${linesOf(headers).notModified}${this.tail()}`, 'latin1');
    }
    const bytes =
      limit === null
        ? this.plainOk(a, headers)
        : Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${limitLines}${linesOf(headers).ok}${this.tail()}`, 'latin1'), a.hit.body]);
    a.target.observe(200, (performance.now() - a.started) / 1000);
    return bytes;
  }

  /** The whole 200 answer without per-client headers, built once per second (its Date) and shared by every request in it. */
  private plainOk(a: LaneAnswer, headers: LaneHeaders): Buffer {
    const tail = this.tail();
    const built = a.hit.socketAnswer;
    if (built !== undefined && built.headers === headers && built.tail === tail) return built.bytes;
    const bytes = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${linesOf(headers).ok}${tail}`, 'latin1'), a.hit.body]);
    // Only the server-wide header list is kept: per-origin lists are built per request.
    if (headers === a.hit.laneHeaders) a.hit.socketAnswer = { headers, tail, bytes };
    return bytes;
  }

  /** Date and the keep-alive lines Node's server writes after the answer's own headers, and the blank line. */
  private tail(): string {
    const now = Date.now();
    const second = Math.floor(now / 1000);
    if (second !== this.dateSecond) {
      this.dateSecond = second;
      this.dateLines = `Date: ${new Date(second * 1000).toUTCString()}\r\n${this.keepAlive}`;
    }
    return this.dateLines;
  }
}

/** The header lines of a prepared list, written once per list. */
function linesOf(h: LaneHeaders): { ok: string; notModified: string } {
  return (h.lines ??= { ok: headerLines(h.ok), notModified: headerLines(h.notModified) });
}

function headerLines(flat: readonly string[]): string {
  let out = '';
  for (let i = 0; i + 1 < flat.length; i += 2) out += `${flat[i]}: ${flat[i + 1]}\r\n`;
  return out;
}
