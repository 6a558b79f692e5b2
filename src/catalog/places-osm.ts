import { dataType, type DataType } from '../core/data-type.ts';
import { PLACES_PRECOMPUTE_JOB } from '../jobs/places-precompute.ts';
import { PlaceRecord } from '../core/records/places.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { PLACE_TYPE_BY_ID } from '../sources/overpass/place-types.ts';
import { describeTags } from '../sources/overpass/tag-filter.ts';
import { storedPlaces } from '../sources/overpass/places-adapters.ts';

interface PlaceLabels {
  type: string;
  label: string;
  label_en: string;
  /** What the objects are, for the summary line. */
  what: string;
}

/** The OSM place types in the order of the spec's places group; tag filters live in sources/overpass/place-types.ts. */
const PLACES: readonly PlaceLabels[] = [
  { type: 'drinking-water', label: 'Trinkwasserbrunnen', label_en: 'Drinking water', what: 'Public drinking water fountains and taps' },
  { type: 'playgrounds', label: 'Spielplätze', label_en: 'Playgrounds', what: 'Playgrounds' },
  { type: 'post-boxes', label: 'Briefkästen', label_en: 'Post boxes', what: 'Post boxes with their collection times' },
  { type: 'post-offices', label: 'Postfilialen', label_en: 'Post offices', what: 'Post offices and postal agencies' },
  { type: 'public-toilets', label: 'Öffentliche Toiletten', label_en: 'Public toilets', what: 'Public toilets with fee and wheelchair access' },
  { type: 'public-wifi', label: 'Öffentliches WLAN', label_en: 'Public Wi-Fi', what: 'Places offering Wi-Fi free of charge' },
  { type: 'recycling-centres', label: 'Wertstoffhöfe', label_en: 'Recycling centres', what: 'Recycling centres with the materials they accept' },
  { type: 'parcel-lockers', label: 'Paketstationen', label_en: 'Parcel lockers', what: 'Parcel lockers with brand and operator' },
  { type: 'markets', label: 'Wochenmärkte', label_en: 'Markets', what: 'Market places (weekly and farmers’ markets)' },
  { type: 'government-offices', label: 'Ämter und Rathäuser', label_en: 'Government offices', what: 'Government offices and town halls' },
];

function placeType(p: PlaceLabels): DataType {
  const def = PLACE_TYPE_BY_ID.get(p.type);
  if (!def) throw new Error(`no OSM tag filter for ${p.type}`);
  return dataType({
    type: p.type,
    label: p.label,
    label_en: p.label_en,
    group: 'places',
    summary: `${p.what} mapped in OpenStreetMap within the city boundary (full list, precomputed weekly)`,
    description:
      `OpenStreetMap objects tagged ${describeTags(def)} inside the city's administrative boundary (the OSM boundary relation, ` +
      'or the AGS tag), ways and relations by their centre, sorted by name (unnamed last). Read from the store, never fetched live: ' +
      'a weekly job asks the Overpass API once per city for all place types. The list is complete and pages with limit/offset; ' +
      'meta.total is its length, meta.as_of the OSM data state, meta.computed_at the precompute time. Before the first precompute ' +
      'of a city the answer is no_data.',
    record: PlaceRecord,
    list: true,
    cache: 'stored',
    example: { city: 'muenchen' },
    reads: [{ source: OVERPASS, adapter: storedPlaces(p.type), jobs: [PLACES_PRECOMPUTE_JOB] }],
  });
}

export const PLACES_OSM_TYPES: DataType[] = PLACES.map(placeType);
