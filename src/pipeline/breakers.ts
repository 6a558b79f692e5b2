import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import type { SourceDecl } from '../core/source.ts';
import type { Store } from '../core/store.ts';
import type { Metrics } from '../metrics.ts';
import { isUpstreamFault } from '../core/upstream-error.ts';
import { toBerlinIso } from '../core/time.ts';
import type { SourceHealth } from './source-health.ts';
import type { SourceSettings } from '../core/config.ts';

export type BreakerState = 'CLOSED' | 'OPEN' | 'HALF_OPEN';

export const DEFAULT_BREAKER = { threshold: 5, cooldownSeconds: 30 };

/**
 * Hosts one source may hold breakers for: its declared ones and those its adapters were led to
 * (an OParl system links to its own host); beyond this, further hosts share one breaker.
 */
export const MAX_HOSTS_PER_SOURCE = 32;
const OTHER_HOSTS = 'other hosts';

const STATE_ORDER: Record<BreakerState, number> = { CLOSED: 0, HALF_OPEN: 1, OPEN: 2 };

/** One host's breaker, as /api/v1/sources shows it. */
export interface HostBreakerView {
  host: string;
  state: BreakerState;
  opened_at: string | null;
  /** Consecutive upstream failures counted since the last success. */
  failures: number;
}

/** One upstream host's breaker of one source in this process. */
interface BreakerSlot {
  host: string;
  policy: CircuitBreakerPolicy;
  cooldownMs: number;
  openedAt: number | null;
  failures: number;
  /** The latest failure that counted, for the reason given when the breaker opens. */
  lastFault: string | null;
  /** A fetch is making the trial call of the elapsed cool-down: the others are refused until it ends. */
  probing: boolean;
}

/** The failure as a short reason; UpstreamError messages never carry a host or a port. */
function reasonOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[[0-9a-f:]+\](?::\d+)?|https?:\/\/\S+/gi, '<upstream>').slice(0, 200);
}

/** The worst of several breakers' states (CLOSED for none): a source's, from its hosts'. */
export function worstState(states: readonly BreakerState[]): BreakerState {
  return states.reduce<BreakerState>((a, b) => (STATE_ORDER[a] >= STATE_ORDER[b] ? a : b), 'CLOSED');
}

/** The host (with a port when it has one) of an upstream URL, or null for one that does not parse. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

/** The hosts a source's configured URLs name (its base URL's first). */
export function configuredHosts(settings: Pick<SourceSettings, 'baseUrl' | 'urls'> | undefined): string[] {
  if (!settings) return [];
  return [...new Set([settings.baseUrl, ...Object.values(settings.urls)].map(hostOf).filter((h): h is string => h !== null))];
}

/**
 * The hosts one fetch called (see Breakers.run): their outcome is counted when the fetch ends,
 * so that an answer the adapter then rejects (format drift) counts against the host that sent it.
 */
export class BreakerScope {
  /** Per source id, the hosts called successfully. */
  readonly called = new Map<SourceDecl, Set<string>>();
  last: { src: SourceDecl; host: string } | null = null;
  /** Failures already counted where they happened (a failed call, a refusal). */
  readonly counted = new WeakSet<object>();
  /** Breakers whose trial call this fetch makes (see Breakers.guard). */
  readonly probes: { probing: boolean }[] = [];

  note(src: SourceDecl, host: string) {
    let hosts = this.called.get(src);
    if (!hosts) this.called.set(src, (hosts = new Set()));
    hosts.add(host);
    this.last = { src, host };
  }
  settled(err: unknown) {
    if (typeof err === 'object' && err !== null) this.counted.add(err);
  }
}

/**
 * One cockatiel breaker per source and upstream host: one dead city portal never opens the
 * breaker of the other cities a source serves. The host is the one each call goes to (see
 * BoundSourceHttp.request), so no adapter declares it. With a shared store (Redis) an opening
 * is published under `breaker:<source>:<host>` for the cool-down, so every instance
 * short-circuits together.
 */
export class Breakers {
  private readonly entries = new Map<string, Map<string, BreakerSlot>>();

  private readonly store: Store;
  private readonly shared: boolean;
  private readonly metrics: Metrics;
  private readonly health?: SourceHealth;
  /** The hosts a source's configured URLs name (shown before any call). */
  private readonly declaredHosts: (src: SourceDecl) => readonly string[];
  constructor(store: Store, shared: boolean, metrics: Metrics, health?: SourceHealth, declaredHosts: (src: SourceDecl) => readonly string[] = () => []) {
    this.store = store;
    this.shared = shared;
    this.metrics = metrics;
    this.health = health;
    this.declaredHosts = declaredHosts;
  }

  private slots(src: SourceDecl): Map<string, BreakerSlot> {
    let m = this.entries.get(src.id);
    if (!m) this.entries.set(src.id, (m = new Map()));
    return m;
  }

  /** The breaker a host's calls count in: its own, or past MAX_HOSTS_PER_SOURCE the one of the other hosts. */
  private keyOf(src: SourceDecl, host: string): string {
    const slots = this.entries.get(src.id);
    return !slots || slots.has(host) || slots.size < MAX_HOSTS_PER_SOURCE - 1 ? host : OTHER_HOSTS;
  }

  private entry(src: SourceDecl, asked: string): BreakerSlot {
    const slots = this.slots(src);
    const host = this.keyOf(src, asked);
    const e = slots.get(host);
    if (e) return e;
    const threshold = src.breaker?.threshold ?? DEFAULT_BREAKER.threshold;
    const cooldownMs = (src.breaker?.cooldownSeconds ?? DEFAULT_BREAKER.cooldownSeconds) * 1000;
    // Only upstream faults count: our own refusals and 4xx answers to user input pass through.
    const policy = circuitBreaker(
      handleWhen((err) => isUpstreamFault(err)),
      { halfOpenAfter: cooldownMs, breaker: new ConsecutiveBreaker(threshold) },
    );
    const entry: BreakerSlot = { host, policy, cooldownMs, openedAt: null, failures: 0, lastFault: null, probing: false };
    const labels = { source: src.id, host };
    policy.onFailure(({ reason }) => {
      if ('error' in reason && isUpstreamFault(reason.error)) {
        entry.lastFault = reasonOf(reason.error);
        entry.failures++;
      }
    });
    policy.onSuccess(() => (entry.failures = 0));
    policy.onBreak(() => {
      entry.openedAt = Date.now();
      this.metrics.breakerState.set(labels, 2);
      const why = `circuit opened for ${cooldownMs / 1000} s after ${threshold} consecutive upstream failures; last: ${entry.lastFault ?? 'unknown'}`;
      this.health?.failure(src.id, why);
      if (this.shared) this.store.set(sharedKey(src, host), String(entry.openedAt), cooldownMs).catch(() => {});
    });
    policy.onHalfOpen(() => this.metrics.breakerState.set(labels, 1));
    policy.onReset(() => {
      entry.openedAt = null;
      this.metrics.breakerState.set(labels, 0);
      this.health?.changes.note();
      if (this.shared) this.store.del(sharedKey(src, host)).catch(() => {});
    });
    slots.set(host, entry);
    return entry;
  }

  /** The source's hosts: its configured ones, then those called since start. */
  hostsOf(src: SourceDecl): string[] {
    return [...new Set([...this.declaredHosts(src), ...(this.entries.get(src.id)?.keys() ?? [])])];
  }

  /** Local state of one host, with an elapsed cool-down shown as HALF_OPEN (the next call is the probe). */
  localHostState(src: SourceDecl, host: string): BreakerState {
    const e = this.entries.get(src.id)?.get(this.keyOf(src, host));
    if (!e) return 'CLOSED';
    switch (e.policy.state) {
      case CircuitState.Closed:
        return 'CLOSED';
      case CircuitState.HalfOpen:
        return 'HALF_OPEN';
      default:
        return e.openedAt !== null && Date.now() - e.openedAt >= e.cooldownMs ? 'HALF_OPEN' : 'OPEN';
    }
  }

  /** This process's view: OPEN when every host this process called is open (nothing would be called). */
  localState(src: SourceDecl): BreakerState {
    const hosts = [...(this.entries.get(src.id)?.keys() ?? [])];
    if (hosts.length === 0) return 'CLOSED';
    return hosts.map((h) => this.localHostState(src, h)).reduce((a, b) => (STATE_ORDER[a] <= STATE_ORDER[b] ? a : b));
  }

  async hostState(src: SourceDecl, host: string): Promise<BreakerState> {
    const local = this.localHostState(src, host);
    if (local === 'CLOSED' && this.shared && (await this.sharedOpen(src, this.keyOf(src, host)))) return 'OPEN';
    return local;
  }

  /** Every host's breaker of a source. */
  async hostViews(src: SourceDecl): Promise<HostBreakerView[]> {
    return Promise.all(
      this.hostsOf(src).map(async (host, i) => {
        const e = this.entries.get(src.id)?.get(host);
        const state = await this.hostState(src, host);
        const opened = e?.openedAt ?? (state === 'OPEN' ? await this.sharedOpenedAt(src, host) : null);
        return { host: shownHost(host, i), state, opened_at: opened === null ? null : toBerlinIso(opened), failures: e?.failures ?? 0 };
      }),
    );
  }

  /** The source's worst host state: OPEN while any of its hosts is open. */
  async state(src: SourceDecl): Promise<BreakerState> {
    return worstState(await Promise.all(this.hostsOf(src).map((h) => this.hostState(src, h))));
  }

  private async sharedOpenedAt(src: SourceDecl, host: string): Promise<number | null> {
    try {
      const v = await this.store.get(sharedKey(src, host));
      return v === null ? null : Number(v) || null;
    } catch {
      return null;
    }
  }

  private async sharedOpen(src: SourceDecl, host: string): Promise<boolean> {
    return (await this.sharedOpenedAt(src, host)) !== null;
  }

  /**
   * True when a fetch of this source would call nothing right now: every host it has is open.
   * With one host open among several, the fetch runs and its call to that host is refused.
   */
  async isOpen(src: SourceDecl): Promise<boolean> {
    const hosts = this.hostsOf(src);
    if (hosts.length === 0) return false;
    for (const h of hosts) if ((await this.hostState(src, h)) !== 'OPEN') return false;
    return true;
  }

  /** Refuses a call to an open host (no upstream request), before the call is made. */
  async guard(src: SourceDecl, host: string, scope: BreakerScope): Promise<void> {
    const state = await this.hostState(src, host);
    if (state === 'CLOSED') return;
    if (state === 'HALF_OPEN') {
      // One fetch makes the trial call; a second call of that fetch to the same host goes on.
      const e = this.entry(src, host);
      if (!e.probing || scope.probes.includes(e)) {
        if (!e.probing) scope.probes.push(e);
        e.probing = true;
        return;
      }
    }
    const refused = new BrokenCircuitError();
    scope.settled(refused);
    throw refused;
  }

  /** A call to `host` failed: counted now, against that host. */
  failed(src: SourceDecl, host: string, err: unknown, scope: BreakerScope) {
    scope.settled(err);
    if (isUpstreamFault(err)) this.count(src, host, err);
  }

  private count(src: SourceDecl, host: string, err?: unknown) {
    // Executing the outcome through the policy keeps cockatiel's state machine (half-open probe, reset).
    const e = this.entry(src, host);
    e.policy.execute(() => (err === undefined ? undefined : Promise.reject(err instanceof Error ? err : new Error(String(err))))).catch(() => {});
  }

  /**
   * Runs one fetch of a source: the calls it makes go through its http client bound to this
   * scope; when it ends, every host it called counts a success, or its failure counts against
   * the host whose answer failed (the last one called when no call failed).
   */
  async run<T>(fn: (scope: BreakerScope) => Promise<T>): Promise<T> {
    const scope = new BreakerScope();
    try {
      const value = await fn(scope);
      for (const [src, hosts] of scope.called) for (const h of hosts) this.count(src, h);
      return value;
    } catch (err) {
      const last = scope.last;
      const counted = typeof err === 'object' && err !== null && scope.counted.has(err);
      if (!counted && last && isUpstreamFault(err)) this.count(last.src, last.host, err);
      throw err;
    } finally {
      for (const p of scope.probes) p.probing = false;
    }
  }
}

/**
 * A host as answers show it: a public name without its port; an address, `localhost` or a name without a dot (an
 * operator's internal mirror) as `host N`, so no answer tells a client where a deployment's internal services are.
 */
export function shownHost(host: string, index: number): string {
  const name = host.startsWith('[') ? host : host.replace(/:\d+$/, '');
  const internal = name.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || !name.includes('.') || /\.(local|internal|lan|localhost)$/i.test(name);
  return internal ? `host ${index + 1}` : name;
}

function sharedKey(src: SourceDecl, host: string): string {
  return `breaker:${src.id}:${host}`;
}
