import type { City } from '../../cities/register.ts';

/** Regionaldatenbank table depth: `-4` Kreise und kreisfreie Städte, `-5` Gemeinden. */
export type Level = 'district' | 'municipality';

export interface RegionRequest {
  /** GENESIS `regionalvariable`. */
  variable: 'KREISE' | 'GEMEIN';
  /** GENESIS `regionalkey`: 5-digit Kreis key or 8-digit AGS. */
  key: string;
  level: Level;
  /** The other spelling to try when the server knows no object under the first one. */
  fallback?: { variable: 'KREISE' | 'GEMEIN'; key: string };
}

export type RegionRule = { ok: true; region: RegionRequest } | { ok: false; reason: string };

/** Region variables of ffcsv lines; everything else is a classifying variable. */
export const REGION_VARIABLES: ReadonlySet<string> = new Set(['KREISE', 'GEMEIN', 'DLAND', 'REGBEZ', 'DG', 'DINSG']);

export function levelOf(table: string): Level {
  return /-5$/.test(table) ? 'municipality' : 'district';
}

/**
 * Which key a city is asked for. Kreis tables hold a kreisangehörige city only inside its
 * district's total, so such a city never gets that value. In Gemeinde tables the
 * kreisfreie Städte appear as their KREISE node, not under GEMEIN.
 */
export function regionFor(city: City, table: string): RegionRule {
  const district = city.ags.slice(0, 5);
  if (levelOf(table) === 'district') {
    if (!city.district_free) {
      return {
        ok: false,
        reason: `${table} is published per district only; ${city.name} (AGS ${city.ags}) belongs to district ${district}, whose value covers more than the city`,
      };
    }
    return { ok: true, region: { variable: 'KREISE', key: district, level: 'district' } };
  }
  if (city.district_free) {
    return { ok: true, region: { variable: 'KREISE', key: district, level: 'municipality', fallback: { variable: 'GEMEIN', key: city.ags } } };
  }
  return { ok: true, region: { variable: 'GEMEIN', key: city.ags, level: 'municipality' } };
}
