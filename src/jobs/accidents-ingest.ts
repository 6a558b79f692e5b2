import { CITIES, CITY_BY_SLUG } from '../cities/register.ts';
import type { JobHost } from '../core/job.ts';
import { UNFALLATLAS } from '../sources/unfallatlas/source.ts';
import { AccidentReader, accidentsRecord, eachPointRowInZip } from '../sources/unfallatlas/points.ts';
import { ACCIDENTS_META_KEY, ACCIDENTS_TTL_MS, accidentsKey, yearFile, type AccidentsMeta } from '../sources/unfallatlas/stored.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { ScheduledJob } from '../core/job.ts';

/** The first year the Unfallatlas published; years are tried from last year back to it, newest first. */
const FIRST_YEAR = 2016;
/** The point table of a year is some hundred MB at most uncompressed. */
const MAX_MEMBER_BYTES = 1024 * 1024 * 1024;

/** Finds the newest published year, reads its point table and stores each city's record. */
export async function ingestAccidents(rt: JobHost, log: (msg: string) => void = () => {}, now = new Date()): Promise<AccidentsMeta> {
  const http = rt.http(UNFALLATLAS);
  for (let year = now.getFullYear() - 1; year >= FIRST_YEAR; year--) {
    const file = yearFile(year);
    const res = await http.request('/{file}', { params: { file }, okStatuses: [404] });
    if (res.status === 404) continue;
    const reader = new AccidentReader(CITIES);
    const member = await eachPointRowInZip(res.body, MAX_MEMBER_BYTES, (row) => reader.row(row));
    reader.finish();
    for (const [slug, tally] of reader.tallies) {
      const city = CITY_BY_SLUG.get(slug)!;
      await rt.store.set(accidentsKey(slug), JSON.stringify(accidentsRecord(tally, city, year, `${file}/${member}`)), ACCIDENTS_TTL_MS);
    }
    // Cities without a row this year must not keep last year's record.
    for (const c of CITIES) if (!reader.tallies.has(c.slug)) await rt.store.del(accidentsKey(c.slug));
    const meta: AccidentsMeta = {
      year,
      file: `${file}/${member}`,
      rows: reader.rows,
      states: [...reader.states].sort(),
      computed_at: new Date().toISOString(),
    };
    await rt.store.set(ACCIDENTS_META_KEY, JSON.stringify(meta), ACCIDENTS_TTL_MS);
    log(`accidents: ${file}: ${reader.rows} accidents, ${reader.tallies.size} of ${CITIES.length} cities`);
    return meta;
  }
  throw new UpstreamError('status', `no Unfallatlas file for ${FIRST_YEAR}–${now.getFullYear() - 1}`, 404);
}

export const accidentsIngest: ScheduledJob = {
  name: 'accidents-ingest',
  // Every two weeks (setTimeout caps at 24.8 days): the yearly file appears on an unannounced date.
  intervalMs: 14 * 86_400_000,
  initialDelayMs: 120_000,
  enabled: (rt) => rt.sourceEnabled(UNFALLATLAS),
  run: async (rt, log) => {
    await ingestAccidents(rt, log);
  },
};
