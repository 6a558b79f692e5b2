import type { Adapter } from '../../core/data-type.ts';
import type { StatisticsRecord } from '../../core/records/statistics.ts';
import type { City } from '../../cities/register.ts';

/** `2024-12-31` -> `31.12.2024`, the way GENESIS states a reference date. */
function germanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

/**
 * Population of the municipality from the precomputed Gemeindeverzeichnis, in the shape of the
 * GENESIS population record: the total is there; the split by sex is not part of the extract
 * (null), and so is the share of women.
 */
export function gvPopulationRecord(city: City): StatisticsRecord {
  return {
    period: germanDate(city.population_date),
    reference_date: city.population_date,
    period_type: 'reference_date',
    region_key: city.ags,
    region_name: city.name,
    region_level: 'municipality',
    population: city.population,
    population_male: null,
    population_female: null,
    female_share_pct: null,
    units: { population: 'count' },
    table_values: [],
  };
}

/** Keyless fallback of `demographics`: the register's GV-ISys population, area and density in meta. */
export const gvPopulation: Adapter<StatisticsRecord> = async ({ city }) => ({
  data: gvPopulationRecord(city),
  meta: {
    area_km2: city.area_km2,
    density_per_km2: city.area_km2 ? Math.round((city.population / city.area_km2) * 10) / 10 : null,
    reason:
      'Regionaldatenbank credentials missing: population from the Destatis Gemeindeverzeichnis (GV-ISys); the split by sex needs GENESIS_USERNAME/GENESIS_PASSWORD.',
  },
});
