import type { SourceDecl } from '../core/source.ts';
import type { Store } from '../core/store.ts';
import { UpstreamError } from '../core/upstream-error.ts';

const WINDOW_MS = 60_000;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A source's published call budget (e.g. DB's 60 calls a minute), counted cluster-wide in the
 * store per minute. A call over the budget waits for the next minute when that is near enough
 * and the queue is short; otherwise it is refused with the wait as Retry-After. A refusal is our
 * own (`own_rate_limit`): it never counts against the source's breaker.
 */
export class RateGate {
  private waiting = 0;

  private readonly store: Store;
  private readonly source: SourceDecl;
  /** Longest a call waits for room. */
  private readonly maxWaitMs: number;
  constructor(store: Store, source: SourceDecl, maxWaitMs: number) {
    this.store = store;
    this.source = source;
    this.maxWaitMs = maxWaitMs;
  }

  async pass(signal?: AbortSignal): Promise<void> {
    const per = this.source.ratePerMinute;
    if (!per) return;
    const started = Date.now();
    for (;;) {
      const now = Date.now();
      const window = Math.floor(now / WINDOW_MS);
      const n = await this.store.incr(`ratelimit:${this.source.id}:${window}`, WINDOW_MS + 1000);
      if (n <= per) return;
      // Spread the next window's start a little, so the queue does not arrive as one burst.
      const wait = (window + 1) * WINDOW_MS - now + Math.floor(Math.random() * 250);
      if (now + wait - started > this.maxWaitMs || this.waiting >= per) {
        throw new UpstreamError('own_rate_limit', `this service's call budget for the source (${per} calls a minute) is used up`, undefined, wait);
      }
      this.waiting++;
      try {
        await sleep(wait, signal);
      } finally {
        this.waiting--;
      }
    }
  }
}
