import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleAll, type CircuitBreakerPolicy } from 'cockatiel';
import type { SourceDecl } from '../core/source.ts';
import type { Store } from '../core/store.ts';
import type { Metrics } from '../metrics.ts';

export type BreakerState = 'CLOSED' | 'OPEN' | 'HALF_OPEN';

export const DEFAULT_BREAKER = { threshold: 5, cooldownSeconds: 30 };

/** One source's breaker in this process. */
interface BreakerSlot {
  policy: CircuitBreakerPolicy;
  cooldownMs: number;
  openedAt: number | null;
}

/**
 * One cockatiel breaker per source. With a shared store (Redis) an opening is published
 * under `breaker:<source>` for the cool-down, so every instance short-circuits together.
 */
export class Breakers {
  private readonly entries = new Map<string, BreakerSlot>();

  constructor(
    private readonly store: Store,
    private readonly shared: boolean,
    private readonly metrics: Metrics,
  ) {}

  private entry(src: SourceDecl): BreakerSlot {
    const known = this.entries.get(src.id);
    if (known) return known;
    const threshold = src.breaker?.threshold ?? DEFAULT_BREAKER.threshold;
    const cooldownMs = (src.breaker?.cooldownSeconds ?? DEFAULT_BREAKER.cooldownSeconds) * 1000;
    const policy = circuitBreaker(handleAll, { halfOpenAfter: cooldownMs, breaker: new ConsecutiveBreaker(threshold) });
    const entry: BreakerSlot = { policy, cooldownMs, openedAt: null };
    policy.onBreak(() => {
      entry.openedAt = Date.now();
      this.metrics.breakerState.set({ source: src.id }, 2);
      if (this.shared) this.store.set(`breaker:${src.id}`, String(entry.openedAt), cooldownMs).catch(() => {});
    });
    policy.onHalfOpen(() => this.metrics.breakerState.set({ source: src.id }, 1));
    policy.onReset(() => {
      entry.openedAt = null;
      this.metrics.breakerState.set({ source: src.id }, 0);
      if (this.shared) this.store.del(`breaker:${src.id}`).catch(() => {});
    });
    this.entries.set(src.id, entry);
    return entry;
  }

  /** Local state, with an elapsed cool-down shown as HALF_OPEN (the next call is the probe). */
  localState(src: SourceDecl): BreakerState {
    const e = this.entry(src);
    switch (e.policy.state) {
      case CircuitState.Closed:
        return 'CLOSED';
      case CircuitState.HalfOpen:
        return 'HALF_OPEN';
      default:
        return e.openedAt !== null && Date.now() - e.openedAt >= e.cooldownMs ? 'HALF_OPEN' : 'OPEN';
    }
  }

  async state(src: SourceDecl): Promise<BreakerState> {
    const local = this.localState(src);
    if (local === 'CLOSED' && this.shared && (await this.sharedOpen(src))) return 'OPEN';
    return local;
  }

  private async sharedOpen(src: SourceDecl): Promise<boolean> {
    try {
      return (await this.store.get(`breaker:${src.id}`)) !== null;
    } catch {
      return false;
    }
  }

  /** True when a call would be refused right now, without making one. */
  async isOpen(src: SourceDecl): Promise<boolean> {
    return (await this.state(src)) === 'OPEN';
  }

  async execute<T>(src: SourceDecl, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const e = this.entry(src);
    if (e.policy.state === CircuitState.Closed && this.shared && (await this.sharedOpen(src))) {
      throw new BrokenCircuitError();
    }
    return e.policy.execute(({ signal }) => fn(signal));
  }
}
