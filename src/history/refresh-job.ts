import type { City } from '../cities/register.ts';
import { CITY_BY_SLUG } from '../cities/register.ts';
import { primariesOf, type DataType } from '../core/data-type.ts';
import type { ScheduledJob } from '../core/job.ts';
import type { HistoryStore } from './store.ts';

/** Seconds between refreshes of a recordable type: its live cadence, else its cache window (stored types: a minute). */
export function cadenceSeconds(dt: DataType): number {
  if (dt.live) return dt.live.refreshSeconds;
  return dt.cache === 'stored' ? 60 : dt.cache.freshSeconds;
}

/**
 * One job per recordable type: at the type's cadence it asks the pipeline again for the cities
 * that have a recording (at most HISTORY_CITIES_PER_CYCLE), so values keep coming without
 * requests; the pipeline hands each fresh value to the recorder. It also drops points older than
 * the type's retention. The scheduler's cluster lock runs each job once per cluster.
 */
export function historyJobs(types: readonly DataType[], store: HistoryStore, refresh: (dt: DataType, city: City) => Promise<void>): ScheduledJob[] {
  return types
    .filter((dt) => dt.history && dt.scope !== 'global')
    .map((dt) => ({
      name: `history-${dt.type}`,
      intervalMs: cadenceSeconds(dt) * 1000,
      initialDelayMs: cadenceSeconds(dt) * 1000,
      enabled: (host) => host.config.historyEnabled && primariesOf(dt).some((s) => host.sourceEnabled(s.source)),
      async run(host, log, signal) {
        const days = dt.history?.retentionDays ?? host.config.historyRetentionDays;
        const dropped = await store.prune(dt.type, Date.now() - days * 86_400_000);
        if (dropped) log(`dropped ${dropped} ${dt.type} points older than ${days} days`);
        const slugs = (await store.cities(dt.type)).slice(0, host.config.historyCitiesPerCycle);
        for (const slug of slugs) {
          if (signal.aborted) return;
          const city = CITY_BY_SLUG.get(slug);
          // One city failing (its upstream down) does not stop the others.
          if (city) await refresh(dt, city).catch(() => undefined);
        }
      },
    }));
}
