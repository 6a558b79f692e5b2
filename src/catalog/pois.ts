import type { DataType } from '../core/data-type.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { POI_TYPES, POI_TYPE_IDS, describeTags } from '../sources/overpass/poi-types.ts';
import { ITEM_CAP } from '../sources/overpass/query.ts';
import { readStoredPois } from '../sources/overpass/stored.ts';

const typeList = POI_TYPES.map((t) => `- \`${t.id}\` (${t.label}): ${describeTags(t)}`).join('\n');

export const pois: DataType = {
  type: 'pois',
  label: 'Einrichtungen (POIs)',
  label_en: 'Points of interest',
  group: 'places',
  tool: 'pois',
  summary: 'Facilities of one type mapped in OpenStreetMap within the city boundary: true total plus a capped sample, precomputed weekly',
  description:
    'Read from the store, never fetched live: a weekly job asks the Overpass API for every city (its administrative ' +
    `area from the OSM boundary relation, or the AGS tag) and type. \`total_available\` is the full count; \`items\` is a sample ` +
    `of at most ${ITEM_CAP} objects sorted by name (ways and relations by their centre) that pages with limit/offset. ` +
    'Before the first precompute of a city and type the answer is no_data. Types and the OSM tags that define them:\n' +
    typeList,
  source: OVERPASS,
  params: [{ name: 'type', type: 'string', required: true, enum: POI_TYPE_IDS, description: 'POI type, one of the fixed list' }],
  cache: 'stored',
  list: 'items',
  async fetch({ city, params, store }) {
    const type = params.type as string;
    const stored = await readStoredPois(store, city.slug, type);
    if (!stored) {
      return { data: null, status: 'no_data', meta: { reason: `the weekly POI precompute has not run yet for ${type} in this city` } };
    }
    const meta = { computed_at: stored.computed_at, item_cap: stored.item_cap };
    if (stored.total_available === 0) {
      return {
        data: null,
        status: 'no_data',
        as_of: stored.osm_base,
        meta: { ...meta, total_available: 0, reason: `OpenStreetMap has no ${type} mapped within the city boundary` },
      };
    }
    const truncated = stored.total_available > stored.items.length;
    return {
      data: {
        type,
        total_available: stored.total_available,
        sample_size: stored.items.length,
        truncated,
        items: stored.items,
      },
      as_of: stored.osm_base,
      meta: {
        ...meta,
        note: truncated
          ? `items is a sample of ${stored.items.length} of ${stored.total_available} (capped at ${stored.item_cap}); total_available is the true total`
          : 'items holds every object; total_available is the true total',
      },
    };
  },
};

export const POI_DATA_TYPES: DataType[] = [pois];
