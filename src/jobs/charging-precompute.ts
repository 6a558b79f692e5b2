import { CITIES } from '../cities/register.ts';
import type { JobHost } from '../core/job.ts';
import { BNETZA } from '../sources/bnetza/source.ts';
import { decodeRegister, parseRegister, type ChargingStation } from '../sources/bnetza/register-csv.ts';
import { CityMatcher, cityRecord } from '../sources/bnetza/city-match.ts';
import { CHARGING_TTL_MS, chargingMetaKey, chargingStoreKey } from '../sources/bnetza/stored.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { ScheduledJob } from '../core/job.ts';

const FILE = /Ladesaeulenregister_BNetzA_(\d{4}-\d{2}-\d{2})\.csv/g;

/** The newest dated CSV the landing page links (previous editions are deleted upstream). */
export function newestRegisterFile(html: string): string | null {
  const files = [...html.matchAll(FILE)].map((m) => ({ file: m[0], date: m[1] ?? '' }));
  files.sort((a, b) => b.date.localeCompare(a.date));
  return files[0]?.file ?? null;
}

/** Downloads the register once, assigns every station to at most one city and stores each city's record. */
export async function precomputeCharging(
  rt: JobHost,
  log: (msg: string) => void = () => {},
): Promise<{ edition: string | null; stations: number; matched: number }> {
  const http = rt.http(BNETZA);
  const page = await http.text('', { base: http.url('page') });
  const file = newestRegisterFile(page);
  if (!file) throw new UpstreamError('parse', 'Ladesäulenregister landing page links no dated CSV');
  const res = await http.request('/{file}', { params: { file } });
  const { edition, stations } = parseRegister(decodeRegister(res.body));
  const matcher = new CityMatcher(CITIES);
  const byCity = new Map<string, ChargingStation[]>(CITIES.map((c) => [c.slug, []]));
  let matched = 0;
  for (const s of stations) {
    const city = matcher.cityOf(s);
    if (!city) continue;
    byCity.get(city.slug)!.push(s);
    matched++;
  }
  for (const [slug, list] of byCity) await rt.store.set(chargingStoreKey(slug), JSON.stringify(cityRecord(list, edition)), CHARGING_TTL_MS);
  await rt.store.set(
    chargingMetaKey,
    JSON.stringify({ file, edition, stations: stations.length, matched, computed_at: new Date().toISOString() }),
    CHARGING_TTL_MS,
  );
  log(`charging: ${file}: ${stations.length} stations, ${matched} in the ${CITIES.length} cities`);
  return { edition, stations: stations.length, matched };
}

export const chargingPrecompute: ScheduledJob = {
  name: 'charging-precompute',
  intervalMs: 7 * 24 * 3600 * 1000,
  initialDelayMs: 60_000,
  enabled: (rt) => rt.sourceEnabled(BNETZA),
  run: async (rt, log) => {
    await precomputeCharging(rt, log);
  },
};
