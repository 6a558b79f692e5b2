import { lazy } from '../core/schema.ts';
import { dataType, type DataType } from '../core/data-type.ts';
import { POIS_PRECOMPUTE_JOB } from '../jobs/pois-precompute.ts';
import { ElectionRecord } from '../core/records/election.ts';
import { BUNDESWAHLLEITERIN } from '../sources/bundeswahlleiterin/source.ts';
import { electionResults } from '../sources/bundeswahlleiterin/adapters.ts';

import { facilitiesRecord } from '../core/records/facilities.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { facilitiesWithOfficial } from '../sources/overpass/facility-counts.ts';
import { EDUCATION_OFFICIAL, HEALTH_OFFICIAL, SOCIAL_OFFICIAL } from './official-tables.ts';

import { socialSituationRecord } from '../core/records/social.ts';
import { BA_STATISTIK } from '../sources/ba/source.ts';
import { socialSituation } from '../sources/ba/social.ts';
import { GENESIS } from '../sources/genesis/source.ts';

import { HospitalRecord } from '../core/records/hospitals.ts';
import { KLINIKATLAS } from '../sources/klinikatlas/source.ts';
import { cityHospitals } from '../sources/klinikatlas/adapters.ts';

const DAY = 86400;

export const EDUCATION_FACILITIES = ['school', 'kindergarten', 'university'] as const;
export const HEALTH_FACILITIES = ['hospital', 'doctors', 'pharmacy'] as const;

const OSM_COUNTS =
  'Counts from OpenStreetMap (ODbL, attribution "© OpenStreetMap contributors") as the weekly POI precompute stored them: the true ' +
  'totals within the city boundary, with rates per 100,000 inhabitants; a type not yet counted has count null. These are mapped ' +
  'facilities, not official statistics. ';

const OFFICIAL =
  'The official part (`official`) comes from the Regionaldatenbank Deutschland (dl-de/by-2-0, its own attribution in each part) and needs ' +
  'GENESIS_USERNAME/GENESIS_PASSWORD; without them, or for a city inside a Kreis (the tables are per district, so a kreisangehörige city ' +
  'never gets its district value), a part is null and meta.official_reasons says why. Either part alone answers ok.';

/** Society (further types): declarations only (adapters live in their source modules). */
export const SOCIETY_ELECTIONS_HEALTH_TYPES: DataType[] = [
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
    record: ElectionRecord,
    cache: { freshSeconds: DAY, staleSeconds: 90 * DAY },
    compare: { resource: 'election', value: 'city_totals.turnout_pct' },
    example: { city: 'koeln' },
    reads: [{ source: BUNDESWAHLLEITERIN, adapter: electionResults }],
  }),
  dataType({
    type: 'education',
    label: 'Bildungseinrichtungen',
    label_en: 'Education facilities',
    group: 'society',
    summary: 'Schools, kindergartens and universities mapped in the city (OpenStreetMap counts, weekly precompute)',
    description:
      OSM_COUNTS +
      'Types: school (amenity=school), kindergarten (amenity=kindergarten), university (amenity=university). ' +
      OFFICIAL +
      ' Tables: 21111-01-03-4 (schools and pupils by school type), 21111-02-06-4 (school leavers by qualification).',
    record: lazy(() => facilitiesRecord(EDUCATION_OFFICIAL)),
    cache: 'stored',
    example: { city: 'berlin' },
    reads: [{ source: OVERPASS, adapter: facilitiesWithOfficial(EDUCATION_FACILITIES, EDUCATION_OFFICIAL), parts: [GENESIS], jobs: [POIS_PRECOMPUTE_JOB] }],
  }),
  dataType({
    type: 'health',
    label: 'Gesundheitseinrichtungen',
    label_en: 'Health facilities',
    group: 'society',
    summary: "Hospitals, doctors' practices and pharmacies mapped in the city (OpenStreetMap counts, weekly precompute)",
    description:
      OSM_COUNTS +
      'Types: hospital (amenity=hospital), doctors (amenity=doctors), pharmacy (amenity=pharmacy). ' +
      OFFICIAL +
      ' Table: 23111-01-05-4 (hospitals, beds, patients).',
    record: lazy(() => facilitiesRecord(HEALTH_OFFICIAL)),
    cache: 'stored',
    example: { city: 'berlin' },
    compare: { resource: 'health', value: 'official.hospitals.beds_per_10k_inhabitants' },
    reads: [{ source: OVERPASS, adapter: facilitiesWithOfficial(HEALTH_FACILITIES, HEALTH_OFFICIAL), parts: [GENESIS], jobs: [POIS_PRECOMPUTE_JOB] }],
  }),
  dataType({
    type: 'social-situation',
    label: 'Soziale Lage',
    label_en: 'Social situation',
    group: 'society',
    summary: 'Basic income support (SGB II, monthly, BA), housing benefit and social assistance (Regionaldatenbank) of the city',
    description:
      'basic_income_support: the BA statistics table EckwerteZeitreiheGrusi (keyless) for the Kreis whose key is the first five AGS digits, ' +
      'with recipients per 1,000 inhabitants. Only kreisfreie Städte (and Berlin, Hamburg) have their own Kreis; for a city inside a Kreis ' +
      'the part is null (meta.basic_income_support_reason), never the Kreis value. The BA row labels were not seen in a recorded answer: ' +
      'the named values are matched by the BA terms and every row is passed on in figures (meta.basic_income_support_note). ' +
      OFFICIAL +
      ' Tables: 22311-01-02-4 (housing benefit households), 22221-01-01-4 (SGB XII recipients).',
    record: lazy(() => socialSituationRecord(SOCIAL_OFFICIAL)),
    cache: { freshSeconds: 6 * 3600, staleSeconds: 45 * DAY },
    compare: { resource: 'social-situation', value: 'basic_income_support.recipients_per_1000_inhabitants' },
    example: { city: 'koeln' },
    reads: [{ source: BA_STATISTIK, adapter: socialSituation(SOCIAL_OFFICIAL), parts: [GENESIS] }],
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
    record: HospitalRecord,
    list: true,
    cache: { freshSeconds: DAY, staleSeconds: 30 * DAY },
    example: { city: 'berlin' },
    reads: [{ source: KLINIKATLAS, adapter: cityHospitals }],
  }),
];
