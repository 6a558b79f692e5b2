import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { DataType } from '../core/data-type.ts';
import { ProblemError } from '../core/problem.ts';
import { envelopeJson, type Outcome, type Pipeline } from '../pipeline/run.ts';
import type { EventContent, StreamEvent } from './event.ts';
import type { Fanout } from './fanout.ts';
import { HEARTBEAT, retryFrame, STREAM_HEADERS } from './sse.ts';
import { Subscriber } from './subscriber.ts';

export interface HubLimits {
  /** How often a key's poller runs the pipeline (ms). */
  pollMs: number;
  heartbeatMs: number;
  maxPerClient: number;
  maxTotal: number;
  /** Unsent bytes past which a stream is dropped. */
  maxBufferedBytes: number;
}

/** A repeated poll failure is logged at most this often. */
const LOG_EVERY_MS = 60_000;

/** One stream a client asks for: the key (type, city, parameters) and how to run it. */
export interface StreamRequest {
  key: string;
  dt: DataType;
  city: string | null;
  query: Record<string, unknown>;
  /** The route's own run of the pipeline for this request: the current envelope. */
  current: Outcome;
  lastEventId: string | null;
  retryMs: number;
  res: ServerResponse;
  /** From reserve(): gives the slot back when the stream ends. */
  release: () => void;
}

/** The streams of one key on this instance, and its poller. */
interface Channel {
  key: string;
  dt: DataType;
  city: string | null;
  query: Record<string, unknown>;
  subscribers: Set<Subscriber>;
  listening: Promise<void>;
  timer: NodeJS.Timeout;
  polling: boolean;
}

/**
 * Members of meta that say how or when this copy was made rather than what it carries: a change
 * of these alone is no change. cache_status is per request and left out of the events too.
 */
const NOT_CONTENT = new Set(['cache_status', 'fetched_at', 'as_of', 'retry_after']);

/** Milliseconds of an ISO time in meta, or null. */
function msOf(v: unknown): number | null {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * The envelope of an event (meta without cache_status), its content hash and the time of its data: as_of, and
 * when it was fetched, to the millisecond (meta.fetched_at has whole seconds; two fetches within one second
 * must still order, or an older copy would pass for a change).
 */
export function eventParts(o: Outcome): EventContent {
  const { cache_status: _perRequest, ...meta } = o.meta;
  const content = Object.fromEntries(Object.entries(meta).filter(([k]) => !NOT_CONTENT.has(k)));
  const hash = createHash('sha256')
    .update(o.dataJson)
    .update('\n')
    .update(JSON.stringify(content))
    .update('\n')
    .update(JSON.stringify(o.attribution))
    .digest('base64url')
    .slice(0, 27);
  const fetchedMs = o.fetchedMs ?? msOf(meta.fetched_at) ?? Date.now();
  return { hash, body: envelopeJson({ ...o, meta }), fetchedMs, asOfMs: msOf(meta.as_of) ?? fetchedMs };
}

/**
 * The Server-Sent Events of this instance. Every stream key (data type, city, parameters) with at
 * least one subscriber here has one channel: a poller, started by the first subscriber and stopped
 * with the last, that runs the key through the normal pipeline (cache, breakers) every `pollMs`
 * and appends the envelope to the fanout when its content changed. Every subscriber of the key, on
 * every instance, gets the change from the fanout; no subscriber causes a fetch of its own.
 */
export class StreamHub {
  private readonly channels = new Map<string, Channel>();
  private readonly all = new Set<Subscriber>();
  private readonly perClient = new Map<string, number>();
  private reserved = 0;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly logged = new Map<string, { at: number; suppressed: number }>();

  private readonly pipeline: Pipeline;
  private readonly fanout: Fanout;
  private readonly limits: HubLimits;
  private readonly log: (msg: string, err: unknown) => void;
  constructor(pipeline: Pipeline, fanout: Fanout, limits: HubLimits, log: (msg: string, err: unknown) => void) {
    this.pipeline = pipeline;
    this.fanout = fanout;
    this.limits = limits;
    this.log = log;
  }

  /** Open streams on this instance. */
  get size(): number {
    return this.all.size;
  }
  /** Keys with a running poller on this instance. */
  get keys(): number {
    return this.channels.size;
  }

  /**
   * Takes a stream slot for `client` or throws the 429 problem (503 while shutting down). Call
   * before answering; the returned release gives the slot back (once).
   */
  reserve(client: string): () => void {
    if (this.closed)
      throw new ProblemError('not_ready', 'this instance is shutting down', 'Reconnect: another instance (or this one after its restart) serves the stream.');
    const mine = this.perClient.get(client) ?? 0;
    const full = this.reserved >= this.limits.maxTotal;
    if (full || mine >= this.limits.maxPerClient)
      throw new ProblemError(
        'rate_limited',
        full ? 'this instance holds as many open streams as it allows' : 'this client holds as many open streams as one client may',
        full
          ? 'Retry after the time in Retry-After, or poll the same path without streaming.'
          : 'Close a stream you no longer read, or subscribe once and share its events.',
        { retry_after_ms: 30_000 },
      );
    this.reserved++;
    this.perClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved--;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
  }

  /** Answers with the stream: the head, `retry`, the first event(s), then every change until the client leaves. */
  async subscribe(r: StreamRequest): Promise<void> {
    if (r.res.destroyed || this.closed) {
      r.release();
      r.res.destroy();
      return;
    }
    const ch = this.channelFor(r);
    const s = new Subscriber(r.res, this.limits.maxBufferedBytes, r.retryMs);
    ch.subscribers.add(s);
    this.all.add(s);
    this.startHeartbeat();
    r.res.once('close', () => {
      r.release();
      this.remove(ch, s);
    });
    r.res.writeHead(200, STREAM_HEADERS);
    s.write(retryFrame(r.retryMs));
    try {
      await ch.listening;
      const newest = await this.append(ch.key, r.current);
      const missed = r.lastEventId === null ? null : await this.fanout.after(ch.key, r.lastEventId);
      if (r.lastEventId === null) s.send(newest);
      else if (missed === null) s.send(newest, 'reset');
      else s.resumeAfter(r.lastEventId, missed);
      s.flush();
    } catch (err) {
      this.log('stream could not start', err);
      r.res.end();
    }
  }

  private channelFor(r: StreamRequest): Channel {
    const ch = this.channels.get(r.key);
    if (ch) return ch;
    const created: Channel = {
      key: r.key,
      dt: r.dt,
      city: r.city,
      query: r.query,
      subscribers: new Set(),
      listening: Promise.resolve(),
      timer: setInterval(() => void this.poll(created), this.limits.pollMs).unref(),
      polling: false,
    };
    created.listening = this.fanout.listen(r.key, (e) => this.deliver(created, e));
    this.channels.set(r.key, created);
    return created;
  }

  private deliver(ch: Channel, e: StreamEvent) {
    for (const s of ch.subscribers) s.offer(e);
  }

  /** Appends an outcome when its content changed and its data is not older than the newest event's. */
  private async append(key: string, o: Outcome): Promise<StreamEvent> {
    return this.fanout.append(key, eventParts(o));
  }

  /** One poll of a key, when this instance holds the key's turn (one instance per key and interval). */
  private async poll(ch: Channel) {
    if (ch.polling || this.closed) return;
    ch.polling = true;
    try {
      if (!(await this.fanout.claimPoll(ch.key, this.limits.pollMs))) {
        // Another instance polls: its changes come announced; the newest one is read here too, so an announcement
        // this instance missed (a reconnect) is late by one interval at most, never lost.
        const newest = await this.fanout.latest(ch.key);
        if (newest) this.deliver(ch, newest);
        return;
      }
      const newest = await this.append(ch.key, await this.pipeline.run(ch.dt, ch.city, ch.query, { noPaging: true }));
      // This instance's own change goes out at once (the announcement that follows is the same id, sent once).
      this.deliver(ch, newest);
    } catch (err) {
      // An upstream down with nothing cached (a 503 problem) is no change; the next poll tries again.
      if (!(err instanceof ProblemError)) this.logOnce('stream poll failed', err);
    } finally {
      ch.polling = false;
    }
  }

  /** A failure every key's poller may meet at once (a store away): one line per minute, with how many were not logged. */
  private logOnce(msg: string, err: unknown) {
    const now = Date.now();
    const last = this.logged.get(msg);
    if (last && now - last.at < LOG_EVERY_MS) {
      last.suppressed++;
      return;
    }
    this.logged.set(msg, { at: now, suppressed: 0 });
    this.log(last?.suppressed ? `${msg} (and ${last.suppressed} more in the last minute)` : msg, err);
  }

  private remove(ch: Channel, s: Subscriber) {
    s.closed = true;
    this.all.delete(s);
    ch.subscribers.delete(s);
    if (this.all.size === 0) this.stopHeartbeat();
    if (ch.subscribers.size > 0 || this.channels.get(ch.key) !== ch) return;
    clearInterval(ch.timer);
    this.channels.delete(ch.key);
    if (!this.closed) this.fanout.unlisten(ch.key).catch((err: unknown) => this.log('stream unlisten failed', err));
  }

  private startHeartbeat() {
    this.heartbeat ??= setInterval(() => {
      for (const s of this.all) s.write(HEARTBEAT);
    }, this.limits.heartbeatMs).unref();
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Ends every stream (clients reconnect, to another instance or this one restarted) and stops the pollers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopHeartbeat();
    for (const ch of this.channels.values()) clearInterval(ch.timer);
    this.channels.clear();
    for (const s of this.all) s.end();
    await this.fanout.close();
  }
}
