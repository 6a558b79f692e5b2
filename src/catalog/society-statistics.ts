import { dataType, type DataType } from '../core/data-type.ts';
import { IndicatorsRecord, PopulationDensityRecord, UnemploymentRecord } from '../core/records/society.ts';
import { ratio } from '../sources/genesis/adapters.ts';
import { WEGWEISER } from '../sources/wegweiser/source.ts';
import { WEGWEISER_TOPICS, keyIndicators } from '../sources/wegweiser/adapters.ts';
import { BA_STATISTIK } from '../sources/ba/source.ts';
import { unemploymentFigures } from '../sources/ba/adapters.ts';
import { SCHOOLS_TABLE } from './official-tables.ts';
import { ZENSUS_GRID } from '../sources/zensus/source.ts';
import { populationDensity } from '../sources/zensus/adapters.ts';
import { POPULATION, byLabel, bySex, statisticsType } from './statistics-type.ts';
import { GV_ISYS } from '../sources/gv-isys/source.ts';
import { gvPopulation } from '../sources/gv-isys/adapters.ts';

const DAY = 86400;

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
    standIn: {
      source: GV_ISYS,
      adapter: gvPopulation,
      cache: { freshSeconds: 86_400, staleSeconds: 2_592_000 },
      note: 'Without Regionaldatenbank credentials: total population (31.12.2024) from the Destatis Gemeindeverzeichnis, precomputed; area and density in meta; no split by sex.',
    },
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
    reads: [{ source: WEGWEISER, adapter: keyIndicators }],
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
    reads: [{ source: BA_STATISTIK, adapter: unemploymentFigures }],
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
    reads: [{ source: ZENSUS_GRID, adapter: populationDensity }],
  }),
];
