import { dataType, type DataType } from '../core/data-type.ts';
import { BaseRecord } from '../core/records/city.ts';
import { WIKIDATA } from '../sources/wikidata/source.ts';
import { cityBase } from '../sources/wikidata/adapters.ts';

/** City and base data: declarations only (adapters live in their source modules). */
export const CITY_TYPES: DataType[] = [
  dataType({
    type: 'base',
    label: 'Basisdaten',
    label_en: 'Base data',
    group: 'city',
    summary: 'Population, area and coordinates of the city from Wikidata',
    description:
      'Read from the Wikidata item of the register (meta.qid). population is the newest P1082 statement by its point in time (P585), ' +
      'deprecated statements excluded, with that date as population_date; area_km2 is P2046 when its unit is km² (hectares and m² are ' +
      'converted, other units dropped); lat/lon are P625. A 429 from Wikidata is honoured: no call is made before its Retry-After has passed, ' +
      'and a cached answer is served meanwhile (meta.retry_after).',
    record: BaseRecord,
    cache: { freshSeconds: 86400, staleSeconds: 604800 },
    example: { city: 'braunschweig' },
    reads: [{ source: WIKIDATA, adapter: cityBase }],
  }),
];
