import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Store } from '../core/store.ts';
import { compareIds, isEventId, type EventContent, type StreamEvent } from './event.ts';
import type { Fanout } from './fanout.ts';

/** A key's history expires a day after its last change (its ids then start a fresh history). */
const HISTORY_TTL_MS = 24 * 3600_000;

/**
 * Appends unless the newest entry has the same hash or newer data (Fanout.append, event.ts isOlder: an
 * earlier as_of, or the same as_of fetched earlier), trims to the window and announces the new entry on the
 * key's channel, all in one step, so two instances never add the same change twice and a lagging copy
 * never takes the stream back. KEYS: stream, channel. ARGV: hash, body, window, ttl ms, fetched ms, as_of ms.
 * Returns id, hash, body, fetched ms, as_of ms (of the new entry, or of the newest one kept).
 */
const APPEND = `
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last then
  local f = {}
  for i = 1, #last[2], 2 do f[last[2][i]] = last[2][i + 1] end
  local t, a = tonumber(f.t or '0'), tonumber(f.a or f.t or '0')
  local nt, na = tonumber(ARGV[5]), tonumber(ARGV[6])
  if f.h == ARGV[1] or na < a or (na == a and nt < t) then return {last[1], f.h, f.b, f.t or '0', f.a or f.t or '0'} end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], '*', 'h', ARGV[1], 't', ARGV[5], 'a', ARGV[6], 'b', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PUBLISH', KEYS[2], id .. '\\n' .. ARGV[1] .. '\\n' .. ARGV[5] .. '\\n' .. ARGV[6] .. '\\n' .. ARGV[2])
return {id, ARGV[1], ARGV[2], ARGV[5], ARGV[6]}
`;

type Entry = [id: string, fields: string[]];

function eventOf([id, fields]: Entry): StreamEvent {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i] ?? ''] = fields[i + 1] ?? '';
  const fetchedMs = Number(f.t ?? 0);
  return { id, hash: f.h ?? '', body: f.b ?? '', fetchedMs, asOfMs: Number(f.a ?? fetchedMs) };
}

/**
 * Several instances on one Redis: each key's changes are a Redis stream (the last `size` entries,
 * whose ids every instance shares, so Last-Event-ID resumes on any of them), and a new entry is
 * announced by pub/sub (a connection of its own) to the instances with subscribers for the key.
 * Which instance polls a key is decided per poll interval by the store's lock (Store.setIfAbsent).
 */
export class RedisFanout implements Fanout {
  private readonly cmd: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, { key: string; deliver: (e: StreamEvent) => void; lastId: string | null }>();
  private readonly token = randomUUID();
  private connectedOnce = false;

  private readonly prefix: string;
  private readonly size: number;
  private readonly store: Store;
  constructor(url: string, prefix: string, size: number, store: Store) {
    this.prefix = prefix;
    this.size = size;
    this.store = store;
    const opts = { maxRetriesPerRequest: 1, connectTimeout: 1000, retryStrategy: () => 250 };
    this.cmd = new Redis(url, { ...opts, commandTimeout: 2000 });
    // No command timeout: a subscribed connection answers nothing while it waits for messages.
    this.sub = new Redis(url, opts);
    // Outages show in /health through the store; without a listener ioredis logs each one loudly.
    this.cmd.on('error', () => {});
    this.sub.on('error', () => {});
    this.sub.on('message', (channel: string, message: string) => this.received(channel, message));
    // Announcements sent while the subscriber connection was away are read back from the streams.
    this.sub.on('ready', () => {
      if (this.connectedOnce) void this.catchUp();
      this.connectedOnce = true;
    });
  }

  private streamKey(key: string) {
    return `${this.prefix}stream:${key}`;
  }
  private channel(key: string) {
    return `${this.prefix}stream-events:${key}`;
  }

  /** An announcement: id, hash, fetched ms and as_of ms on a line each, then the envelope. */
  private received(channel: string, message: string) {
    const l = this.listeners.get(channel);
    const [id, hash, fetched, asOf] = message.split('\n', 4);
    if (!l || id === undefined || hash === undefined || fetched === undefined || asOf === undefined) return;
    const body = message.slice(id.length + hash.length + fetched.length + asOf.length + 4);
    this.deliver(l, { id, hash, fetchedMs: Number(fetched), asOfMs: Number(asOf), body });
  }

  private deliver(l: { deliver: (e: StreamEvent) => void; lastId: string | null }, e: StreamEvent) {
    if (l.lastId !== null && compareIds(e.id, l.lastId) <= 0) return;
    l.lastId = e.id;
    l.deliver(e);
  }

  private async catchUp() {
    for (const l of this.listeners.values()) {
      try {
        const missed = l.lastId ? await this.after(l.key, l.lastId) : null;
        const events = missed ?? [await this.latest(l.key)].filter((e): e is StreamEvent => e !== null);
        for (const e of events) this.deliver(l, e);
      } catch {
        // Redis went away again: the next reconnect catches up.
      }
    }
  }

  async append(key: string, e: EventContent): Promise<StreamEvent> {
    const [id, h, b, t, a] = (await this.cmd.eval(
      APPEND,
      2,
      this.streamKey(key),
      this.channel(key),
      e.hash,
      e.body,
      this.size,
      HISTORY_TTL_MS,
      e.fetchedMs,
      e.asOfMs,
    )) as string[];
    return { id: id ?? '', hash: h ?? '', body: b ?? '', fetchedMs: Number(t ?? 0), asOfMs: Number(a ?? t ?? 0) };
  }

  async latest(key: string): Promise<StreamEvent | null> {
    const [last] = (await this.cmd.xrevrange(this.streamKey(key), '+', '-', 'COUNT', 1)) as Entry[];
    return last ? eventOf(last) : null;
  }

  async after(key: string, id: string): Promise<StreamEvent[] | null> {
    if (!isEventId(id)) return null;
    const k = this.streamKey(key);
    const [held] = (await this.cmd.xrange(k, id, id)) as Entry[];
    if (!held) return null;
    return ((await this.cmd.xrange(k, `(${id}`, '+')) as Entry[]).map(eventOf);
  }

  /** Resolves when both connections are up, or after `timeoutMs`, whichever comes first. */
  async ready(timeoutMs: number): Promise<void> {
    const up = (c: Redis) => (c.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => c.once('ready', () => resolve())));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([up(this.cmd), up(this.sub)]), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()))]);
    clearTimeout(timer);
  }

  /** Whether both connections are up: commands and announcements get through now. */
  get available(): boolean {
    return this.cmd.status === 'ready' && this.sub.status === 'ready';
  }

  async listen(key: string, deliver: (e: StreamEvent) => void): Promise<void> {
    const channel = this.channel(key);
    const listener = { key, deliver, lastId: null };
    this.listeners.set(channel, listener);
    // A SUBSCRIBE sent while ioredis still runs its ready check is answered but not kept (seen under load):
    // subscribe once the connection is ready; after a reconnect ioredis subscribes again by itself.
    if (this.sub.status !== 'ready') await new Promise<void>((resolve) => this.sub.once('ready', () => resolve()));
    // Left while Redis was away: nothing to subscribe to any more.
    if (this.listeners.get(channel) !== listener) return;
    await this.sub.subscribe(channel);
  }

  async unlisten(key: string): Promise<void> {
    const channel = this.channel(key);
    this.listeners.delete(channel);
    await this.sub.unsubscribe(channel);
  }

  async claimPoll(key: string, intervalMs: number): Promise<boolean> {
    // Shorter than the interval, so the instance that polled last can claim the next tick again.
    return this.store.setIfAbsent(`stream-poll:${key}`, this.token, Math.max(10, Math.floor(intervalMs * 0.9)));
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.cmd.disconnect();
    this.sub.disconnect();
  }
}
