import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import type { SourceDecl } from '../core/source.ts';
import type { Store } from '../core/store.ts';
import type { Metrics } from '../metrics.ts';
import { isUpstreamFault } from '../core/upstream-error.ts';
import type { SourceHealth } from './source-health.ts';

export type BreakerState = 'CLOSED' | 'OPEN' | 'HALF_OPEN';

export const DEFAULT_BREAKER = { threshold: 5, cooldownSeconds: 30 };

/** One source's breaker in this process. */
interface BreakerSlot {
  policy: CircuitBreakerPolicy;
  cooldownMs: number;
  openedAt: number | null;
  /** The latest failure that counted, for the reason given when the breaker opens. */
  lastFault: string | null;
}

/** The failure as a short reason; UpstreamError messages never carry a host or a port. */
function reasonOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[[0-9a-f:]+\](?::\d+)?|https?:\/\/\S+/gi, '<upstream>').slice(0, 200);
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
    private readonly health?: SourceHealth,
  ) {}

  private entry(src: SourceDecl): BreakerSlot {
    const e = this.entries.get(src.id);
    if (e) return e;
    const threshold = src.breaker?.threshold ?? DEFAULT_BREAKER.threshold;
    const cooldownMs = (src.breaker?.cooldownSeconds ?? DEFAULT_BREAKER.cooldownSeconds) * 1000;
    // Only upstream faults count: our own refusals and 4xx answers to user input pass through.
    const policy = circuitBreaker(
      handleWhen((err) => isUpstreamFault(err)),
      { halfOpenAfter: cooldownMs, breaker: new ConsecutiveBreaker(threshold) },
    );
    const entry: BreakerSlot = { policy, cooldownMs, openedAt: null, lastFault: null };
    policy.onFailure(({ reason }) => {
      if ('error' in reason && isUpstreamFault(reason.error)) entry.lastFault = reasonOf(reason.error);
    });
    policy.onBreak(() => {
      entry.openedAt = Date.now();
      this.metrics.breakerState.set({ source: src.id }, 2);
      const why = `circuit opened for ${cooldownMs / 1000} s after ${threshold} consecutive upstream failures; last: ${entry.lastFault ?? 'unknown'}`;
      this.health?.failure(src.id, why);
      if (this.shared) this.store.set(`breaker:${src.id}`, String(entry.openedAt), cooldownMs).catch(() => {});
    });
    policy.onHalfOpen(() => this.metrics.breakerState.set({ source: src.id }, 1));
    policy.onReset(() => {
      entry.openedAt = null;
      this.metrics.breakerState.set({ source: src.id }, 0);
      this.health?.changes.note();
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
