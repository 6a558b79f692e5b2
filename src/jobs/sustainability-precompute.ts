import { CITIES } from '../cities/register.ts';
import type { JobHost } from '../core/job.ts';
import { INKAR } from '../sources/inkar/source.ts';
import { SDG_INDICATOR_BY_ID } from '../sources/inkar/indicators.ts';
import { eachInkarRowInZip, InkarReader } from '../sources/inkar/rows.ts';
import { SUSTAINABILITY_META_KEY, SUSTAINABILITY_TTL_MS, sustainabilityKey, type SustainabilityMeta } from '../sources/inkar/stored.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { ScheduledJob } from '../core/job.ts';

/** The first edition published in this layout; editions are tried from this year back to it. */
const FIRST_EDITION = 2025;
/** The long-format CSV is several GB uncompressed (about 63 million rows in 2025). */
const MAX_MEMBER_BYTES = 16 * 1024 ** 3;

/**
 * Finds the newest INKAR edition, streams its CSV out of the ZIP held in memory and stores each
 * city's SDG indicators. Everything is parsed before anything is written: a broken archive or CSV
 * fails the run and leaves the stored edition untouched.
 */
export async function precomputeSustainability(rt: JobHost, log: (msg: string) => void = () => {}, now = new Date()): Promise<SustainabilityMeta> {
  const http = rt.http(INKAR);
  for (let year = now.getUTCFullYear(); year >= FIRST_EDITION; year--) {
    const file = `inkar_${year}.zip`;
    const res = await http.request('/{file}', { params: { file }, okStatuses: [404] });
    if (res.status === 404) continue;
    const reader = new InkarReader(CITIES, SDG_INDICATOR_BY_ID);
    const member = await eachInkarRowInZip(res.body, MAX_MEMBER_BYTES, (row) => reader.row(row));
    const edition = `INKAR ${year} (${file}/${member})`;
    const records = reader.finish(edition);
    // A file with rows but none of the declared indicators for any city: the layout or ids changed.
    if (records.size === 0) throw new UpstreamError('parse', `INKAR CSV: none of the declared indicators for any register city in ${reader.rows} rows`);
    for (const c of CITIES) {
      const rec = records.get(c.slug);
      await rt.store.set(sustainabilityKey(c.slug), JSON.stringify(rec ?? { missing: true, edition: `INKAR ${year}` }), SUSTAINABILITY_TTL_MS);
    }
    const meta: SustainabilityMeta = { edition, rows: reader.rows, matched_rows: reader.matched, cities: records.size, computed_at: new Date().toISOString() };
    await rt.store.set(SUSTAINABILITY_META_KEY, JSON.stringify(meta), SUSTAINABILITY_TTL_MS);
    log(`sustainability: ${edition}: ${reader.rows} rows, ${records.size} of ${CITIES.length} cities`);
    return meta;
  }
  throw new UpstreamError('status', `no INKAR edition from ${FIRST_EDITION} to ${now.getUTCFullYear()}`, 404);
}

export const sustainabilityPrecompute: ScheduledJob = {
  name: 'sustainability-precompute',
  // Every three weeks (setTimeout caps at 24.8 days): a new edition appears about once a year.
  intervalMs: 21 * 86_400_000,
  initialDelayMs: 150_000,
  enabled: (rt) => rt.sourceEnabled(INKAR),
  run: async (rt, log) => {
    await precomputeSustainability(rt, log);
  },
};
