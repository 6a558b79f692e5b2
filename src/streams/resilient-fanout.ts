import { compareIds, type EventContent, type StreamEvent } from './event.ts';
import type { Fanout } from './fanout.ts';
import type { LocalFanout } from './local-fanout.ts';
import type { RedisFanout } from './redis-fanout.ts';

/** How long the first stream waits for the Redis connections to come up before it starts without them. */
const FIRST_CONNECT_MS = 2000;

/**
 * The Redis fan-out with this instance's own in front of it for while Redis is away: a stream then
 * starts at once and its key is polled here (each instance polls for its own subscribers), its
 * changes go to this instance's streams; once both Redis connections are back, everything goes
 * through Redis again. Each key's events reach the hub in increasing id order, whichever side they
 * came from (the local ids continue above the last Redis id delivered), so a stream never gets an
 * event twice; an unchanged envelope appended to Redis after the outage is skipped by the
 * subscribers (subscriber.ts compares content too). One log line when Redis is lost, one when it
 * is back, however many keys and polls meet the outage.
 */
export class ResilientFanout implements Fanout {
  /** The newest id delivered per listened key, from either side. */
  private readonly newest = new Map<string, string | null>();
  private down = false;
  /** The connections' first start: waited for (briefly), so a stream started right after it goes through Redis. */
  private readonly started: Promise<void>;

  private readonly redis: RedisFanout;
  private readonly local: LocalFanout;
  private readonly log: (msg: string) => void;
  constructor(redis: RedisFanout, local: LocalFanout, log: (msg: string) => void) {
    this.redis = redis;
    this.local = local;
    this.log = log;
    this.started = redis.ready(FIRST_CONNECT_MS);
  }

  /** Whether Redis serves now; notes the change of state (and logs it once). */
  private async up(): Promise<boolean> {
    await this.started;
    const available = this.redis.available;
    this.noteState(available);
    return available;
  }

  private noteState(available: boolean) {
    if (available === !this.down) return;
    this.down = !available;
    this.log(
      available
        ? 'stream fan-out (Redis) reachable again; streams go through it again'
        : 'stream fan-out (Redis) unreachable; streams are polled and served by this instance until it returns',
    );
  }

  /** A Redis call, or the local fallback when Redis is away or the call fails. */
  private async either<T>(viaRedis: () => Promise<T>, locally: () => Promise<T>): Promise<T> {
    if (!(await this.up())) return locally();
    try {
      return await viaRedis();
    } catch {
      this.noteState(false);
      return locally();
    }
  }

  async append(key: string, e: EventContent): Promise<StreamEvent> {
    return this.either(
      () => this.redis.append(key, e),
      () => this.local.append(key, e, this.newest.get(key) ?? undefined),
    );
  }

  async latest(key: string): Promise<StreamEvent | null> {
    return this.either(
      () => this.redis.latest(key),
      () => this.local.latest(key),
    );
  }

  async after(key: string, id: string): Promise<StreamEvent[] | null> {
    return this.either(
      () => this.redis.after(key, id),
      () => this.local.after(key, id),
    );
  }

  async listen(key: string, deliver: (e: StreamEvent) => void): Promise<void> {
    this.newest.set(key, null);
    const inOrder = (e: StreamEvent) => {
      const last = this.newest.get(key);
      if (last === undefined || (last !== null && compareIds(e.id, last) <= 0)) return;
      this.newest.set(key, e.id);
      deliver(e);
    };
    await this.local.listen(key, inOrder);
    const viaRedis = this.redis.listen(key, inOrder);
    // While Redis is away the stream starts without it; the subscription is made when it is back.
    if (await this.up()) await viaRedis.catch(() => this.noteState(false));
    else viaRedis.catch(() => undefined);
  }

  async unlisten(key: string): Promise<void> {
    this.newest.delete(key);
    await this.local.unlisten(key);
    await this.redis.unlisten(key).catch(() => undefined);
  }

  async claimPoll(key: string, intervalMs: number): Promise<boolean> {
    return this.either(
      () => this.redis.claimPoll(key, intervalMs),
      async () => true,
    );
  }

  async close(): Promise<void> {
    this.newest.clear();
    await this.local.close();
    await this.redis.close();
  }
}
