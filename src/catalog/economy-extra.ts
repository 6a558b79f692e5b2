import { dataType, globalType, type DataType } from '../core/data-type.ts';
import { TenderRecord } from '../core/records/tenders.ts';
import { VERGABE } from '../sources/vergabe/source.ts';
import { cityTenders, nationalTenders } from '../sources/vergabe/adapters.ts';
import { TENDER_DAYS } from '../sources/vergabe/stored.ts';
import { LandValuesRecord } from '../core/records/land.ts';
import { GENESIS } from '../sources/genesis/source.ts';
import { LAND_TABLE, landValues } from '../sources/genesis/land-values.ts';

const INGEST =
  `The tenders-ingest job reads the daily OCDS exports of the last ${TENDER_DAYS} publication days (one JSON file per notice in a ZIP, ` +
  'read in memory, member names checked) into the store; request paths never download.';

/** Economy (further types): declarations only (adapters live in their source modules). */
export const ECONOMY_EXTRA_TYPES: DataType[] = [
  dataType({
    type: 'public-tenders',
    label: 'Öffentliche Ausschreibungen',
    label_en: 'Public tenders',
    group: 'economy',
    summary: `Procurement notices of the last ${TENDER_DAYS} days whose contracting authority is located in the city (Datenservice Öffentlicher Einkauf)`,
    description:
      INGEST +
      ' A notice belongs to the city when its buyer\'s address locality is the city\'s name or an alias ("Stadt"/"Landeshauptstadt" ' +
      'prefixes ignored); the post code alone is not used. Newest first, paged.',
    source: VERGABE,
    record: TenderRecord,
    list: true,
    cache: 'stored',
    job: 'tenders-ingest',
    example: { city: 'koeln' },
    adapter: cityTenders,
  }),
  globalType({
    type: 'tenders',
    label: 'Ausschreibungen bundesweit',
    label_en: 'Tenders nationwide',
    group: 'economy',
    summary: `All procurement notices of the last ${TENDER_DAYS} publication days in Germany, newest first, filterable by text and CPV code`,
    description: INGEST + ' q matches title, description, buyer and place (case-insensitive); cpv matches the start of any CPV code.',
    path: '/api/v1/tenders',
    source: VERGABE,
    params: [
      { name: 'q', type: 'string', description: 'Free text in title, description, buyer or place', pattern: /^.{2,100}$/, patternHint: '2 to 100 characters' },
      {
        name: 'cpv',
        type: 'string',
        description: 'CPV code or its leading digits (2 to 8 digits), e.g. 45 or 90911200',
        pattern: /^\d{2,8}$/,
        patternHint: '2 to 8 digits',
      },
    ],
    record: TenderRecord,
    list: true,
    cache: 'stored',
    job: 'tenders-ingest',
    example: { params: { cpv: '909' } },
    adapter: nationalTenders,
  }),
  dataType({
    type: 'land-values',
    label: 'Baulandpreise',
    label_en: 'Land values',
    group: 'economy',
    summary: 'Average purchase price of building land per m² in the city (statistical offices, yearly; district-free cities)',
    description:
      `Regionaldatenbank table ${LAND_TABLE} (Kaufwerte für Bauland, per district): sales, area, purchase sum and average price per m² ` +
      'of all building land and of building-ready land for the newest year with values. It exists per district only, so a city inside a ' +
      'district answers no_data (its district covers more than the city). Needs GENESIS credentials (disabled without). Standard land ' +
      'values (Bodenrichtwerte) of the states’ BORIS services are not part of this answer; standard_land_values says so.',
    source: GENESIS,
    record: LandValuesRecord,
    cache: { freshSeconds: 86_400, staleSeconds: 30 * 86_400 },
    compare: { resource: 'land-values', value: 'building_land.price_eur_m2' },
    example: { city: 'koeln' },
    adapter: landValues,
  }),
];
