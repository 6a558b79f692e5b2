import { CITIES, type City } from '../cities/register.ts';
import { toBerlinIso } from '../core/time.ts';
import type { JobHost } from '../core/job.ts';
import { BKG_VG250, VG250_ARCHIVE } from '../sources/bkg/source.ts';
import { readMunicipalities } from '../sources/bkg/boundaries.ts';
import { measure, simplify, toLonLat, toPolygons } from '../sources/bkg/geometry.ts';
import { GEO_RUN_KEY, writeStoredGeo } from '../sources/bkg/stored.ts';
import type { ScheduledJob } from '../core/job.ts';

export const GEO_JOB_NAME = 'geo-precompute';
/** Douglas-Peucker tolerance of the simplified boundary (VG250 itself is generalised for 1:250 000). */
export const SIMPLIFY_TOLERANCE_M = 100;
/** VG250 is published once a year; the archive is read again after this long. */
export const GEO_REFRESH_AFTER_MS = 30 * 24 * 3600_000;

export interface GeoSummary {
  stored: number;
  missing: string[];
  edition: string | null;
}

/** Downloads the VG250 archive once and stores every city's boundary, simplified and full, with its measures. */
export async function precomputeGeo(rt: JobHost, cities: readonly City[] = CITIES, log: (m: string) => void = () => {}): Promise<GeoSummary> {
  const res = await rt.http(BKG_VG250).request(VG250_ARCHIVE);
  const modified = res.headers['last-modified'];
  const edition = modified && !Number.isNaN(Date.parse(modified)) ? toBerlinIso(modified) : null;
  const found = await readMunicipalities(res.body, new Set(cities.map((c) => c.ags)));
  const computed_at = toBerlinIso(new Date());
  const missing: string[] = [];
  let stored = 0;
  for (const city of cities) {
    const m = found.get(city.ags);
    const polys = m ? toPolygons(m.rings) : [];
    if (!m || polys.length === 0) {
      missing.push(city.slug);
      continue;
    }
    await writeStoredGeo(rt.store, city.slug, {
      ags: m.ags,
      name: m.name,
      designation: m.designation,
      effective_since: m.effective_since,
      ...measure(polys),
      simplify_tolerance_m: SIMPLIFY_TOLERANCE_M,
      simplified: toLonLat(simplify(polys, SIMPLIFY_TOLERANCE_M), 5),
      full: toLonLat(polys, 6),
      edition,
      computed_at,
    });
    stored++;
  }
  await rt.store.set(GEO_RUN_KEY, JSON.stringify({ computed_at, edition, stored, missing }));
  log(`geo: ${stored} boundaries stored${missing.length ? `, not in the archive: ${missing.join(', ')}` : ''}`);
  return { stored, missing, edition };
}

export const GEO_PRECOMPUTE_JOB: ScheduledJob = {
  name: GEO_JOB_NAME,
  intervalMs: 24 * 3600_000,
  initialDelayMs: 120_000,
  enabled: (rt) => rt.sourceEnabled(BKG_VG250),
  async run(rt, log) {
    const last = await rt.store.get(GEO_RUN_KEY);
    const at = last ? Date.parse((JSON.parse(last) as { computed_at: string }).computed_at) : 0;
    if (Date.now() - at < GEO_REFRESH_AFTER_MS) return;
    await precomputeGeo(rt, CITIES, log);
  },
};
