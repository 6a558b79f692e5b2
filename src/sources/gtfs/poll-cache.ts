import type { FeedStatus } from './rt-index.ts';

/**
 * What requests derive from one poll (a trip joined with its schedule, a city's rendered
 * board), kept for the requests that ask again before the next poll. Entries belong to one poll
 * and one scope (the static index they were joined with): a new poll, another scope or the
 * poll's expiry empties the cache, so it never answers what the store no longer holds. Bounded,
 * least recently used first out.
 */
export class PollCache<V> {
  private pollId: string | null = null;
  private scope: unknown = undefined;
  private expiresMs = 0;
  private readonly entries = new Map<string, V>();

  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  async get(feed: FeedStatus, key: string, nowMs: number, load: () => Promise<V>, scope: unknown = null): Promise<V> {
    const pollId = feed.poll_id ?? feed.polled_at;
    if (pollId !== this.pollId || scope !== this.scope) {
      this.entries.clear();
      this.pollId = pollId;
      this.scope = scope;
      this.expiresMs = feed.expires_ms ?? 0;
    }
    const cacheable = nowMs < this.expiresMs;
    if (cacheable) {
      if (this.entries.has(key)) {
        const hit = this.entries.get(key) as V;
        this.entries.delete(key);
        this.entries.set(key, hit);
        return hit;
      }
    } else this.entries.clear();
    const value = await load();
    if (cacheable) {
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, value);
    }
    return value;
  }
}
