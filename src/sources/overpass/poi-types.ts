import { tag, type OsmTypeFilter } from './tag-filter.ts';

/**
 * The POI types offered by /cities/{city}/pois and the OpenStreetMap tags that define each
 * (tag-filter.ts). The weekly POI precompute asks for all of them in one query per city.
 */
export interface PoiType extends OsmTypeFilter {
  label: string;
  /** OSM tags stored with each item beyond name and address (read by a data type of its own, e.g. bike-parking). */
  keepTags?: readonly string[];
}

export const POI_TYPES: readonly PoiType[] = [
  { id: 'hospital', label: 'Hospitals', groups: [[tag('amenity', 'hospital')]] },
  { id: 'school', label: 'Schools', groups: [[tag('amenity', 'school')]] },
  { id: 'pharmacy', label: 'Pharmacies', groups: [[tag('amenity', 'pharmacy')]] },
  { id: 'kindergarten', label: 'Kindergartens and day nurseries', groups: [[tag('amenity', 'kindergarten')]] },
  { id: 'doctors', label: "Doctors' practices", groups: [[tag('amenity', 'doctors')]] },
  { id: 'police', label: 'Police stations', groups: [[tag('amenity', 'police')]] },
  { id: 'fire_station', label: 'Fire stations', groups: [[tag('amenity', 'fire_station')]] },
  { id: 'library', label: 'Libraries', groups: [[tag('amenity', 'library')]] },
  { id: 'university', label: 'Universities', groups: [[tag('amenity', 'university')]] },
  { id: 'cinema', label: 'Cinemas', groups: [[tag('amenity', 'cinema')]] },
  { id: 'theatre', label: 'Theatres', groups: [[tag('amenity', 'theatre')]] },
  { id: 'museum', label: 'Museums', groups: [[tag('tourism', 'museum')]] },
  {
    id: 'swimming_pool',
    label: 'Swimming baths',
    // leisure=swimming_pool alone would count private garden pools and every basin of a bath,
    // so only whole facilities and pools tagged as publicly accessible are taken.
    groups: [
      [tag('leisure', 'sports_centre'), { key: 'sport', value: '(^|;)swimming(;|$)', regex: true }],
      [tag('leisure', 'water_park')],
      [tag('leisure', 'swimming_pool'), { key: 'access', value: '^(yes|public)$', regex: true }],
    ],
  },
  { id: 'playground', label: 'Playgrounds', groups: [[tag('leisure', 'playground')]] },
  { id: 'supermarket', label: 'Supermarkets', groups: [[tag('shop', 'supermarket')]] },
  {
    id: 'bicycle_parking',
    label: 'Bicycle parking',
    groups: [[tag('amenity', 'bicycle_parking')]],
    keepTags: ['capacity', 'covered', 'bicycle_parking', 'access', 'fee'],
  },
];

export const POI_TYPE_IDS: readonly string[] = POI_TYPES.map((t) => t.id);

export const POI_TYPE_BY_ID: ReadonlyMap<string, PoiType> = new Map(POI_TYPES.map((t) => [t.id, t]));
