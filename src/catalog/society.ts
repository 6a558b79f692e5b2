import { dataType, type DataType } from '../core/data-type.ts';
import { IndicatorsRecord, PopulationDensityRecord, UnemploymentRecord } from '../core/records/society.ts';
import { ratio } from '../sources/genesis/adapters.ts';
import { WEGWEISER } from '../sources/wegweiser/source.ts';
import { WEGWEISER_TOPICS, keyIndicators } from '../sources/wegweiser/adapters.ts';
import { BA_STATISTIK } from '../sources/ba/source.ts';
import { unemploymentFigures } from '../sources/ba/adapters.ts';
import { SCHOOLS_TABLE, EDUCATION_OFFICIAL, HEALTH_OFFICIAL, SOCIAL_OFFICIAL } from './official-tables.ts';
import { ZENSUS_GRID } from '../sources/zensus/source.ts';
import { populationDensity } from '../sources/zensus/adapters.ts';
import { POPULATION, byLabel, bySex, statisticsType } from './statistics-type.ts';
import { GV_ISYS } from '../sources/gv-isys/source.ts';
import { gvPopulation } from '../sources/gv-isys/adapters.ts';
import { lazy } from '../core/schema.ts';
import { POIS_PRECOMPUTE_JOB } from '../jobs/pois-precompute.ts';
import { ElectionRecord } from '../core/records/election.ts';
import { BUNDESWAHLLEITERIN } from '../sources/bundeswahlleiterin/source.ts';
import { electionResults } from '../sources/bundeswahlleiterin/adapters.ts';
import { facilitiesRecord } from '../core/records/facilities.ts';
import { OVERPASS } from '../sources/overpass/source.ts';
import { facilitiesWithOfficial } from '../sources/overpass/facility-counts.ts';
import { socialSituationRecord } from '../core/records/social.ts';
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

/** Population and society: declarations only (adapters live in their source modules). */
export const SOCIETY_TYPES: DataType[] = [
  statisticsType({
    type: 'demographics',
    label: 'Bevölkerung',
    label_en: 'Population',
    group: 'society',
    summary: 'Population of the municipality by sex on the latest 31 December (official update of the census)',
    table: '12411-01-01-5',
    fields: bySex('population', POPULATION, 'Population'),
    derived: [
      { field: 'female_share_pct', description: 'Share of women in the population', unit: '%', compute: (v) => ratio(v.population_female, v.population, 100) },
    ],
    compare: { resource: 'demographics', value: 'population' },
    example: { city: 'koeln' },
    sources: [
      {
        role: 'stand-in',
        source: GV_ISYS,
        adapter: gvPopulation,
        cache: { freshSeconds: 86_400, staleSeconds: 2_592_000 },
        note: 'Without Regionaldatenbank credentials: total population (31.12.2024) from the Destatis Gemeindeverzeichnis, precomputed; area and density in meta; no split by sex.',
      },
    ],
  }),
  statisticsType({
    type: 'population-structure',
    label: 'Altersstruktur',
    label_en: 'Population by age group',
    group: 'society',
    summary: 'Population of the municipality in 17 age groups by sex on the latest 31 December',
    table: '12411-02-03-5',
    fields: [{ field: 'population', value: POPULATION, description: 'Population' }],
    breakdown: {
      key: 'age_groups',
      description: 'Population per age group (17 groups, under 3 to 75 and over)',
      variable: { codes: ['ALTX17'], label: /Altersgruppe/i },
      fields: bySex('population', POPULATION, 'Population of the age group'),
    },
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'population-trend',
    label: 'Bevölkerungsentwicklung',
    label_en: 'Population trend',
    group: 'society',
    summary: 'Population of the municipality on the last eleven 31 Decembers, with the change over the series',
    description:
      'Regionaldatenbank Deutschland table 12411-01-01-5. From 31.12.2022 on the update is based on the 2022 census, so the series has a break there (about -6 % in Köln).',
    table: '12411-01-01-5',
    mode: 'series',
    periods: 11,
    fields: [{ field: 'population', value: POPULATION, description: 'Population' }],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'care',
    label: 'Pflege',
    label_en: 'Long-term care',
    group: 'society',
    summary: 'People in need of long-term care by type of benefit and sex, 31 December (district-free cities)',
    table: '22411-02-05-4',
    fields: bySex('care_recipients', byLabel(/^Pflegebedürftige/i), 'People in need of long-term care'),
    breakdown: {
      key: 'by_benefit_type',
      description: 'People in need of long-term care per type of benefit (home care, nursing home ...)',
      variable: byLabel(/Leistungsart/i),
      fields: [{ field: 'care_recipients', value: byLabel(/^Pflegebedürftige/i), description: 'People receiving this type of benefit' }],
    },
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'childcare',
    label: 'Kinderbetreuung',
    label_en: 'Childcare',
    group: 'society',
    summary: 'Children under three in day care and the care rate, 1 March (district-free cities)',
    table: '22543-03-01-4',
    fields: [
      { field: 'children_under_3_in_care', value: byLabel(/^Betreute Kinder/i), description: 'Children under three in day care' },
      { field: 'care_rate_under_3_pct', value: byLabel(/Betreuungsquote/i), description: 'Share of children under three in day care', unit: '%' },
    ],
    breakdown: {
      key: 'by_care_type',
      description: 'Children under three per type of day care (day-care centre, childminder)',
      variable: byLabel(/Kindertagesbetreuung/i),
      fields: [
        { field: 'children_under_3_in_care', value: byLabel(/^Betreute Kinder/i), description: 'Children under three in this type of care' },
        { field: 'care_rate_under_3_pct', value: byLabel(/Betreuungsquote/i), description: 'Care rate of this type of care', unit: '%' },
      ],
    },
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'integration',
    label: 'Einbürgerungen',
    label_en: 'Naturalisations',
    group: 'society',
    summary: 'Naturalisations per year with naturalisation rate and potential, by previous nationality (district-free cities)',
    table: '12511-04-01-4',
    fields: [
      { field: 'naturalisations', value: byLabel(/^(Einbürgerungen|Eingebürgerte)/i), description: 'Naturalisations in the year' },
      {
        field: 'naturalisation_rate_pct',
        value: byLabel(/^Einbürgerungsquote/i),
        description: 'Naturalisations per foreigner resident ten years or longer',
        unit: '%',
      },
      {
        field: 'naturalisation_potential',
        value: byLabel(/^Einbürgerungspotential/i),
        description: 'Foreigners resident ten years or longer (the naturalisation potential)',
      },
    ],
    breakdown: {
      key: 'by_nationality',
      description: 'Naturalisations per previous nationality',
      variable: byLabel(/Staatsangehörigkeit/i),
      fields: [
        { field: 'naturalisations', value: byLabel(/^(Einbürgerungen|Eingebürgerte)/i), description: 'Naturalisations of people of this previous nationality' },
      ],
    },
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'education-stats',
    label: 'Schulstatistik',
    label_en: 'School statistics',
    group: 'society',
    summary: 'General schools and their pupils by school type at the start of the school year (district-free cities)',
    ...SCHOOLS_TABLE,
    example: { city: 'koeln' },
  }),
  dataType({
    type: 'indicators',
    label: 'Kennzahlen',
    label_en: 'Key indicators',
    group: 'society',
    summary: 'Key municipal indicators (demography, social situation, employment) with year and unit, from Wegweiser Kommune',
    description:
      `Every indicator of the Wegweiser Kommune topics ${WEGWEISER_TOPICS.map((t) => `\`${t}\``).join(', ')} ` +
      '(Demografische Entwicklung, Soziale Lage, Beschäftigung & Arbeitsmarkt) for the city, as the upstream defines them: ' +
      'name, unit, the latest year with a value, that value and the yearly series. The city is found by its AGS (Wegweiser `gkz`), never by name.',
    record: IndicatorsRecord,
    list: 'indicators',
    cache: { freshSeconds: DAY, staleSeconds: 30 * DAY },
    // Indicators differ in meaning and unit, so there is no single value to sort cities by.
    compare: { resource: 'indicators' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: WEGWEISER, adapter: keyIndicators }],
  }),
  dataType({
    type: 'unemployment',
    label: 'Arbeitslosigkeit',
    label_en: 'Unemployment',
    group: 'society',
    summary: 'Registered unemployed and unemployment rate of the reference month (monthly, Bundesagentur für Arbeit)',
    description:
      'Eckwerte table EckwerteTabelleALOKr of the BA statistics API for the Kreis whose key is the first five AGS digits. ' +
      'Only kreisfreie Städte (and Berlin, Hamburg) have their own Kreis; cities inside a Kreis answer no_data instead of the Kreis value.',
    record: UnemploymentRecord,
    cache: { freshSeconds: 6 * 3600, staleSeconds: 45 * DAY },
    compare: { resource: 'unemployment', value: 'unemployment_rate_pct' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: BA_STATISTIK, adapter: unemploymentFigures }],
  }),
  dataType({
    type: 'population-density',
    label: 'Bevölkerungsdichte',
    label_en: 'Population density',
    group: 'society',
    summary: 'Inhabitants per km² from the Zensus 2022 100 m grid (reference date 15 May 2022)',
    description:
      "Census inhabitants summed over the city's 100 m grid cells (cells carry the AGS) divided by the municipal area of the " +
      'Gemeindeverzeichnis (31.12.2024); also the populated area (cells × 0.01 km²) and the density over it.',
    record: PopulationDensityRecord,
    cache: { freshSeconds: 7 * DAY, staleSeconds: 30 * DAY },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: ZENSUS_GRID, adapter: populationDensity }],
  }),
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
    sources: [{ role: 'primary', source: BUNDESWAHLLEITERIN, adapter: electionResults }],
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
    sources: [
      { role: 'primary', source: OVERPASS, adapter: facilitiesWithOfficial(EDUCATION_FACILITIES, EDUCATION_OFFICIAL), jobs: [POIS_PRECOMPUTE_JOB] },
      { role: 'part', source: GENESIS },
    ],
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
    sources: [
      { role: 'primary', source: OVERPASS, adapter: facilitiesWithOfficial(HEALTH_FACILITIES, HEALTH_OFFICIAL), jobs: [POIS_PRECOMPUTE_JOB] },
      { role: 'part', source: GENESIS },
    ],
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
    sources: [
      { role: 'primary', source: BA_STATISTIK, adapter: socialSituation(SOCIAL_OFFICIAL) },
      { role: 'part', source: GENESIS },
    ],
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
    sources: [{ role: 'primary', source: KLINIKATLAS, adapter: cityHospitals }],
  }),
];
