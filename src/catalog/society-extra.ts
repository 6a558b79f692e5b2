import { dataType, type DataType } from '../core/data-type.ts';
import { ElectionRecord } from '../core/records/election.ts';
import { BUNDESWAHLLEITERIN } from '../sources/bundeswahlleiterin/source.ts';
import { electionResults } from '../sources/bundeswahlleiterin/adapters.ts';

import { FacilityCountsRecord } from '../core/records/facilities.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { facilityCounts } from '../sources/overpass/facility-counts.ts';

import { HospitalRecord } from '../core/records/hospitals.ts';
import { KLINIKATLAS } from '../sources/klinikatlas/source.ts';
import { cityHospitals } from '../sources/klinikatlas/adapters.ts';

const DAY = 86400;

export const EDUCATION_FACILITIES = ['school', 'kindergarten', 'university'] as const;
export const HEALTH_FACILITIES = ['hospital', 'doctors', 'pharmacy'] as const;

const OSM_COUNTS =
  'Counts from OpenStreetMap (ODbL, attribution "© OpenStreetMap contributors") as the weekly POI precompute stored them: the true ' +
  'totals within the city boundary, with rates per 100,000 inhabitants; a type not yet counted has count null. These are mapped ' +
  'facilities, not official statistics; the Regionalstatistik figures are separate types that need GENESIS credentials.';

/** Society (further types): declarations only (adapters live in their source modules). */
export const SOCIETY_EXTRA_TYPES: DataType[] = [
  dataType({
    type: 'election',
    label: 'Bundestagswahl',
    label_en: 'Federal election',
    group: 'society',
    summary: 'Latest federal election in the city: turnout and second-vote shares per party, per constituency and for the city',
    description:
      'Official results per constituency (kerg2.csv of Die Bundeswahlleiterin) mapped to the city through the official assignment of ' +
      'municipalities to constituencies. A city with several constituencies gets them added up in city_totals (shares recomputed from ' +
      'the summed votes). A constituency that also covers other municipalities is listed with shared: true and its figures are never ' +
      'attributed to the city; city_totals is then null and meta.city_totals_reason says why. Results exist per constituency only, so a ' +
      'city inside a shared constituency has no figures of its own.',
    source: BUNDESWAHLLEITERIN,
    record: ElectionRecord,
    cache: { freshSeconds: DAY, staleSeconds: 90 * DAY },
    compare: { resource: 'election', value: 'city_totals.turnout_pct' },
    example: { city: 'koeln' },
    adapter: electionResults,
  }),
  dataType({
    type: 'education',
    label: 'Bildungseinrichtungen',
    label_en: 'Education facilities',
    group: 'society',
    summary: 'Schools, kindergartens and universities mapped in the city (OpenStreetMap counts, weekly precompute)',
    description: OSM_COUNTS + ' Types: school (amenity=school), kindergarten (amenity=kindergarten), university (amenity=university).',
    source: OVERPASS,
    record: FacilityCountsRecord,
    cache: 'stored',
    job: 'pois-precompute',
    example: { city: 'berlin' },
    adapter: facilityCounts(EDUCATION_FACILITIES),
  }),
  dataType({
    type: 'health',
    label: 'Gesundheitseinrichtungen',
    label_en: 'Health facilities',
    group: 'society',
    summary: "Hospitals, doctors' practices and pharmacies mapped in the city (OpenStreetMap counts, weekly precompute)",
    description: OSM_COUNTS + ' Types: hospital (amenity=hospital), doctors (amenity=doctors), pharmacy (amenity=pharmacy).',
    source: OVERPASS,
    record: FacilityCountsRecord,
    cache: 'stored',
    job: 'pois-precompute',
    example: { city: 'berlin' },
    adapter: facilityCounts(HEALTH_FACILITIES),
  }),
  dataType({
    type: 'hospitals-atlas',
    label: 'Krankenhäuser (Bundes-Klinik-Atlas)',
    label_en: 'Hospitals (federal hospital atlas)',
    group: 'society',
    summary: 'Hospital sites in the city with beds and contact from the Bundes-Klinik-Atlas (off by default: no published licence)',
    description:
      'The site list of the Bundes-Klinik-Atlas (locations.json), read once a day and filtered to the city: sites within the city radius ' +
      'whose place names the city (the atlas has no municipality key), nearest first. The atlas states no licence, so the source answers ' +
      'disabled with meta.disabled_reason unless the operator sets KLINIKATLAS_ENABLED=true.',
    source: KLINIKATLAS,
    record: HospitalRecord,
    list: true,
    cache: { freshSeconds: DAY, staleSeconds: 30 * DAY },
    example: { city: 'berlin' },
    adapter: cityHospitals,
  }),
];
