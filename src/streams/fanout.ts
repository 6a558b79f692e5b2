import type { EventContent, StreamEvent } from './event.ts';

/**
 * Where a stream key's changes live and how they reach every instance's subscribers: in process
 * (local-fanout.ts) or through Redis (redis-fanout.ts, with REDIS_URL).
 */
export interface Fanout {
  /**
   * Appends the envelope as the key's newest event unless its hash equals the newest one's, or its
   * data is older than the newest one's (event.ts isOlder: an earlier as_of, or the same fetched
   * earlier): an instance whose in-process copy lags must not flip the stream back. A new event
   * reaches the key's listener on every instance, this one included. Returns the newest event
   * either way.
   */
  append(key: string, e: EventContent): Promise<StreamEvent>;
  /** The newest event of the key, or null. */
  latest(key: string): Promise<StreamEvent | null>;
  /** The events after `id`, oldest first, or null when `id` is not in the kept history. */
  after(key: string, id: string): Promise<StreamEvent[] | null>;
  /** Delivers the key's new events to `deliver` (one listener per key and instance) from now on. */
  listen(key: string, deliver: (e: StreamEvent) => void): Promise<void>;
  unlisten(key: string): Promise<void>;
  /** True when this instance runs the key's poll now: one instance per key and poll interval. */
  claimPoll(key: string, intervalMs: number): Promise<boolean>;
  close(): Promise<void>;
}
