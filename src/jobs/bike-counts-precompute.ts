import type { JobHost } from '../core/job.ts';
import type { SourceHttp } from '../core/adapter-http.ts';
import type { BikeCountStationRecord } from '../core/records/mobility.ts';
import { BIKE_COUNTERS } from '../sources/bike-counters/source.ts';
import { fetchBerlin } from '../sources/bike-counters/berlin.ts';
import { fetchHamburg } from '../sources/bike-counters/hamburg.ts';
import { fetchLeipzig } from '../sources/bike-counters/leipzig.ts';
import { fetchMuenchen } from '../sources/bike-counters/muenchen.ts';
import { BIKE_COUNTS_TTL_MS, BIKE_COUNT_CITIES, bikeCountsKey, type StoredBikeCounts } from '../sources/bike-counters/stored.ts';
import type { ScheduledJob } from '../core/job.ts';

type CityFeed = (http: SourceHttp, now: Date, signal?: AbortSignal) => Promise<{ stations: BikeCountStationRecord[]; counted_until?: string | null }>;

/** Per covered city the reader of its feed (one upstream family each). */
const FEEDS: Record<(typeof BIKE_COUNT_CITIES)[number], CityFeed> = {
  berlin: (http, _now, signal) => fetchBerlin(http, signal),
  hamburg: async (http, _now, signal) => ({ stations: await fetchHamburg(http, signal) }),
  leipzig: async (http, _now, signal) => ({ stations: await fetchLeipzig(http, signal) }),
  muenchen: async (http, now, signal) => ({ stations: await fetchMuenchen(http, now, signal) }),
};

/**
 * Reads every city's counting-station feed and stores the city's stations. A city whose feed
 * fails keeps its previous stations; the run fails only when no city could be read.
 */
export async function precomputeBikeCounts(
  rt: JobHost,
  log: (msg: string) => void = () => {},
  now = new Date(),
  signal?: AbortSignal,
): Promise<{ stored: string[]; failed: string[] }> {
  const http = rt.http(BIKE_COUNTERS);
  const stored: string[] = [];
  const failed: string[] = [];
  for (const slug of BIKE_COUNT_CITIES) {
    if (signal?.aborted) break;
    try {
      const { stations, counted_until } = await FEEDS[slug](http, now, signal);
      const record: StoredBikeCounts = { computed_at: new Date().toISOString(), stations, ...(counted_until ? { counted_until } : {}) };
      await rt.store.set(bikeCountsKey(slug), JSON.stringify(record), BIKE_COUNTS_TTL_MS);
      stored.push(slug);
      log(`bike-counts: ${slug}: ${stations.length} stations`);
    } catch (err) {
      failed.push(slug);
      log(`bike-counts: ${slug} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (stored.length === 0 && failed.length > 0) throw new Error(`bike-counts precompute: every city feed failed (${failed.join(', ')})`);
  return { stored, failed };
}

export const bikeCountsPrecompute: ScheduledJob = {
  name: 'bike-counts-precompute',
  intervalMs: 24 * 3600 * 1000,
  initialDelayMs: 120_000,
  enabled: (rt) => rt.sourceEnabled(BIKE_COUNTERS),
  run: async (rt, log, signal) => {
    await precomputeBikeCounts(rt, log, new Date(), signal);
  },
};
