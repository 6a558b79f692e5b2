import { CITIES } from '../cities/register.ts';
import type { JobHost } from '../core/job.ts';
import { ENERGIEATLAS_NRW } from '../sources/energieatlas-nrw/source.ts';
import { parseInBetrieb, type InBetriebBody } from '../sources/energieatlas-nrw/parse.ts';
import { SOLAR_ROOFS_META_KEY, SOLAR_ROOFS_TTL_MS, SOLAR_ROOFS_STATES, solarRoofsKey } from '../sources/energieatlas-nrw/stored.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { ScheduledJob } from '../core/job.ts';

/** Years tried, newest first: the file of a year appears some months after it. */
export const SOLAR_ROOFS_YEARS_BACK = 12;

/** Finds the newest year file of the Energieatlas and stores each NRW city's row. */
export async function precomputeSolarRoofs(rt: JobHost, log: (msg: string) => void = () => {}, now = new Date()): Promise<{ year: number; cities: number }> {
  const http = rt.http(ENERGIEATLAS_NRW);
  const first = now.getUTCFullYear();
  for (let year = first; year > first - SOLAR_ROOFS_YEARS_BACK; year--) {
    const res = await http.request('/{year}/{file}', { params: { year, file: `${year}.json` }, okStatuses: [404] });
    if (res.status === 404) continue;
    let body: InBetriebBody;
    try {
      body = JSON.parse(res.body.toString('utf8')) as InBetriebBody;
    } catch {
      throw new UpstreamError('parse', `Energieatlas NRW ${year}.json is not JSON`);
    }
    const rows = parseInBetrieb(body, year);
    let stored = 0;
    for (const city of CITIES.filter((c) => (SOLAR_ROOFS_STATES as readonly string[]).includes(c.state))) {
      const row = rows.get(city.ags);
      await rt.store.set(solarRoofsKey(city.slug), JSON.stringify(row ?? { missing: true, year }), SOLAR_ROOFS_TTL_MS);
      if (row) stored++;
    }
    await rt.store.set(SOLAR_ROOFS_META_KEY, JSON.stringify({ year, rows: rows.size, stored, computed_at: new Date().toISOString() }), SOLAR_ROOFS_TTL_MS);
    log(`solar-roofs: Energieatlas NRW ${year}: ${rows.size} municipalities, ${stored} register cities`);
    return { year, cities: stored };
  }
  throw new UpstreamError('status', `Energieatlas NRW has no year file from ${first - SOLAR_ROOFS_YEARS_BACK + 1} to ${first}`, 404);
}

export const solarRoofsPrecompute: ScheduledJob = {
  name: 'solar-roofs-precompute',
  intervalMs: 7 * 24 * 3600 * 1000,
  initialDelayMs: 90_000,
  enabled: (rt) => rt.sourceEnabled(ENERGIEATLAS_NRW),
  run: async (rt, log) => {
    await precomputeSolarRoofs(rt, log);
  },
};
