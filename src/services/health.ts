import { VERSION } from '../core/version.ts';
import type { ServiceContext } from './context.ts';

const started = Date.now();

export interface HealthState {
  status: 'ok' | 'degraded';
  version: string;
  demo: boolean;
  store: { kind: string; reachable: boolean; fallback: string | null };
  uptime_seconds: number;
  sources: { total: number; enabled: number; disabled: string[]; open_breakers: string[]; format_drift: string[] };
  data_types: ServiceContext['rt']['catalog']['counts'];
}

/** The state `/api/v1/health` and the landing page show: store reachability, sources, breakers, demo mode. */
export async function healthState({ rt }: Pick<ServiceContext, 'rt'>): Promise<HealthState> {
  const reachable = await rt.store.ping();
  const sources = rt.config.sourceList;
  const breakers = await Promise.all(sources.map((s) => rt.breakers.state(s)));
  return {
    status: reachable ? 'ok' : 'degraded',
    version: VERSION,
    demo: rt.config.demo,
    store: { kind: rt.store.kind, reachable, fallback: reachable ? null : 'in-process cache, direct upstream fetches' },
    uptime_seconds: Math.round((Date.now() - started) / 1000),
    sources: {
      total: sources.length,
      enabled: sources.filter((s) => rt.sourceEnabled(s)).length,
      disabled: sources.filter((s) => !rt.sourceEnabled(s)).map((s) => s.id),
      open_breakers: sources.filter((_, i) => breakers[i] === 'OPEN').map((s) => s.id),
      // Sources whose latest answers their adapters or record schemas rejected (GET /api/v1/sources says since when and why).
      format_drift: rt.health.drift.drifting(),
    },
    data_types: rt.catalog.counts,
  };
}
