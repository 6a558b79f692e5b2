import type { Store } from '../../core/store.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** Wikimedia answers 429 with Retry-After; without one, wait this long. */
const DEFAULT_WAIT_MS = 60_000;

/**
 * Runs an upstream call unless the upstream asked to wait: a 429 stores its Retry-After for the
 * cluster, and calls before that time fail at once as `rate_limited` (no request leaves), so the
 * breaker and stale logic apply without hammering a service that bans clients ignoring 429.
 */
export async function honourRetryAfter<T>(store: Store, sourceId: string, call: () => Promise<T>): Promise<T> {
  const key = `retry-after:${sourceId}`;
  const until = Number(await store.get(key).catch(() => null));
  const wait = until - Date.now();
  if (wait > 0) throw new UpstreamError('rate_limited', `${sourceId} asked to wait ${Math.ceil(wait / 1000)} s (Retry-After)`, 429, wait);
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 429) {
      const waitMs = err.retryAfterMs && err.retryAfterMs > 0 ? err.retryAfterMs : DEFAULT_WAIT_MS;
      await store.set(key, String(Date.now() + waitMs), waitMs).catch(() => {});
      throw new UpstreamError('rate_limited', err.message, 429, waitMs);
    }
    throw err;
  }
}
