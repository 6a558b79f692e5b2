import { tag, type OsmTypeFilter } from './tag-filter.ts';

/**
 * The place data types read from OpenStreetMap (one route each, e.g. /cities/{city}/drinking-water)
 * and the tags that define them (tag-filter.ts; the id is the data type name and route suffix).
 * The weekly place precompute asks for all of them in one query per city.
 */
export type PlaceType = OsmTypeFilter;

export const PLACE_TYPES: readonly PlaceType[] = [
  { id: 'drinking-water', groups: [[tag('amenity', 'drinking_water')]] },
  { id: 'playgrounds', groups: [[tag('leisure', 'playground')]] },
  { id: 'post-boxes', groups: [[tag('amenity', 'post_box')]] },
  { id: 'post-offices', groups: [[tag('amenity', 'post_office')]] },
  { id: 'public-toilets', groups: [[tag('amenity', 'toilets')]] },
  // Wi-Fi offered free of charge; `internet_access=wlan` alone would list every café with a paid hotspot.
  { id: 'public-wifi', groups: [[tag('internet_access', 'wlan'), tag('internet_access:fee', 'no')]] },
  // Recycling centres (Wertstoffhöfe), not the many street-side container sites.
  { id: 'recycling-centres', groups: [[tag('amenity', 'recycling'), tag('recycling_type', 'centre')]] },
  { id: 'parcel-lockers', groups: [[tag('amenity', 'parcel_locker')]] },
  { id: 'markets', groups: [[tag('amenity', 'marketplace')]] },
  { id: 'government-offices', groups: [[tag('office', 'government')], [tag('amenity', 'townhall')]] },
];

export const PLACE_TYPE_BY_ID: ReadonlyMap<string, PlaceType> = new Map(PLACE_TYPES.map((t) => [t.id, t]));
