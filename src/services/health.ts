import { VERSION } from '../core/version.ts';
import type { ServiceContext } from './context.ts';
import { sourceStates, type SourceState } from '../pipeline/source-state.ts';
import { historyHealth } from './history-answers.ts';

const started = Date.now();

export interface HealthState {
  status: 'ok' | 'degraded';
  /** Why the status is degraded: which store does not answer (never its address). */
  reasons: string[];
  version: string;
  demo: boolean;
  store: { kind: string; reachable: boolean; fallback: string | null };
  uptime_seconds: number;
  sources: {
    total: number;
    enabled: number;
    disabled: string[];
    /** Of the enabled ones: latest call succeeded; latest call failed, breaker open or drifting; not called since start. */
    answering: number;
    failing: string[];
    untried: number;
    open_breakers: string[];
    open_hosts: { source: string; host: string }[];
    format_drift: string[];
  };
  data_types: ServiceContext['rt']['catalog']['counts'];
  history: Awaited<ReturnType<typeof historyHealth>>;
}

/** The state `/api/v1/health` and the landing page show: store reachability, sources, breakers, demo mode. */
export async function healthState({ rt, history }: Pick<ServiceContext, 'rt' | 'history'>): Promise<HealthState> {
  const reachable = await rt.store.ping();
  const sources = rt.config.sourceList;
  const hostViews = await Promise.all(sources.map((s) => rt.breakers.hostViews(s)));
  const openHosts = sources.flatMap((s, i) => hostViews[i]!.filter((b) => b.state === 'OPEN').map((b) => ({ source: s.id, host: b.host })));
  const states = await sourceStates(rt, sources);
  const inState = (state: SourceState) => sources.filter((s) => states.get(s.id) === state).map((s) => s.id);
  const historyState = await historyHealth({ history });
  const reasons = [
    ...(reachable ? [] : [`cache store (${rt.store.kind}) unreachable: answers come from the in-process cache and direct upstream fetches`]),
    ...(historyState.enabled && !historyState.reachable
      ? [`history store (${historyState.kind}) unreachable: history answers 503 history_store_unavailable; new points are kept until it answers`]
      : []),
  ];
  return {
    status: reasons.length ? 'degraded' : 'ok',
    reasons,
    version: VERSION,
    demo: rt.config.demo,
    store: { kind: rt.store.kind, reachable, fallback: reachable ? null : 'in-process cache, direct upstream fetches' },
    uptime_seconds: Math.round((Date.now() - started) / 1000),
    sources: {
      total: sources.length,
      enabled: sources.filter((s) => rt.sourceEnabled(s)).length,
      disabled: sources.filter((s) => !rt.sourceEnabled(s)).map((s) => s.id),
      // Health stays 200 while the app and its store are fine; these say how many sources fail now.
      answering: inState('answering').length,
      failing: inState('failing'),
      untried: inState('untried').length,
      open_breakers: [...new Set(openHosts.map((o) => o.source))],
      open_hosts: openHosts,
      // Sources whose latest answers their adapters or record schemas rejected (GET /api/v1/sources says since when and why).
      format_drift: rt.health.drift.drifting(),
    },
    data_types: rt.catalog.counts,
    history: historyState,
  };
}
