import { dataType, type DataType } from '../core/data-type.ts';
import { POIS_PRECOMPUTE_JOB } from '../jobs/pois-precompute.ts';
import { PoisRecord } from '../core/records/places.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { POI_TYPES, POI_TYPE_IDS } from '../sources/overpass/poi-types.ts';
import { describeTags } from '../sources/overpass/tag-filter.ts';
import { ITEM_CAP } from '../sources/overpass/stored.ts';
import { storedPois } from '../sources/overpass/adapters.ts';

const typeList = POI_TYPES.map((t) => `- \`${t.id}\` (${t.label}): ${describeTags(t)}`).join('\n');

/** Places and facilities: declarations only (adapters live in their source modules). */
export const PLACES_TYPES: DataType[] = [
  dataType({
    type: 'pois',
    label: 'Einrichtungen (POIs)',
    label_en: 'Points of interest',
    group: 'places',
    summary: 'Facilities of one type mapped in OpenStreetMap within the city boundary: true total plus a capped sample, precomputed weekly',
    description:
      'Read from the store, never fetched live: a weekly job asks the Overpass API once per city for all types together (its ' +
      `administrative area from the OSM boundary relation, or the AGS tag) and sorts the answer into types by their tags. \`total_available\` is the full count; \`items\` is a sample ` +
      `of at most ${ITEM_CAP} objects sorted by name (ways and relations by their centre) that pages with limit/offset. ` +
      'Before the first precompute of a city the answer is no_data. Types and the OSM tags that define them:\n' +
      typeList,
    params: [{ name: 'type', type: 'string', required: true, enum: POI_TYPE_IDS, description: 'POI type, one of the fixed list' }],
    record: PoisRecord,
    list: 'items',
    cache: 'stored',
    example: { city: 'berlin', params: { type: 'hospital' } },
    reads: [{ source: OVERPASS, adapter: storedPois, jobs: [POIS_PRECOMPUTE_JOB] }],
  }),
];
