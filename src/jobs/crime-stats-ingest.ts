import { CITIES } from '../cities/register.ts';
import type { JobHost } from '../core/job.ts';
import { BKA_PKS } from '../sources/bka-pks/source.ts';
import { parseCityTable, tableVersion } from '../sources/bka-pks/city-table.ts';
import { CRIME_META_KEY, CRIME_TTL_MS, cityTablePath, crimeKey, decodeTable, type CrimeMeta } from '../sources/bka-pks/stored.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { ScheduledJob } from '../core/job.ts';

/** Report years tried, newest first (a year's PKS appears in spring of the next year). */
const YEARS_BACK = 3;

/** Reads the newest PKS city table and stores each city's rows by its exact municipality key. */
export async function ingestCrimeStats(rt: JobHost, log: (msg: string) => void = () => {}, now = new Date()): Promise<CrimeMeta> {
  const http = rt.http(BKA_PKS);
  for (let year = now.getFullYear() - 1; year >= now.getFullYear() - YEARS_BACK; year--) {
    const path = cityTablePath(year);
    // 404 and the BKA's "not found" redirect both mean: this year is not published yet.
    const res = await http.request(path, { query: { __blob: 'publicationFile' }, okStatuses: [404] });
    if (res.status === 404) continue;
    const text = decodeTable(res.body);
    const table = parseCityTable(text, year);
    const meta: CrimeMeta = { report_year: year, version: tableVersion(text), file: path, cities_in_table: table.size, computed_at: new Date().toISOString() };
    for (const c of CITIES) {
      const rec = table.get(c.ags);
      if (rec) await rt.store.set(crimeKey(c.slug), JSON.stringify(rec), CRIME_TTL_MS);
      else await rt.store.del(crimeKey(c.slug));
    }
    await rt.store.set(CRIME_META_KEY, JSON.stringify(meta), CRIME_TTL_MS);
    log(`crime-stats: PKS ${year}: ${table.size} cities in the table`);
    return meta;
  }
  throw new UpstreamError('status', `no PKS city table for the last ${YEARS_BACK} report years`, 404);
}

export const crimeStatsIngest: ScheduledJob = {
  name: 'crime-stats-ingest',
  // Every two weeks (setTimeout caps at 24.8 days): the yearly table appears on an unannounced date.
  intervalMs: 14 * 86_400_000,
  initialDelayMs: 150_000,
  enabled: (rt) => rt.sourceEnabled(BKA_PKS),
  run: async (rt, log) => {
    await ingestCrimeStats(rt, log);
  },
};
