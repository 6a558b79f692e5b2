import { dataType, globalType, type DataType } from '../core/data-type.ts';
import { tendersIngest } from '../jobs/tenders-ingest.ts';
import { TenderRecord } from '../core/records/tenders.ts';
import { VERGABE } from '../sources/vergabe/source.ts';
import { cityTenders, nationalTenders } from '../sources/vergabe/adapters.ts';
import { TENDER_DAYS } from '../sources/vergabe/stored.ts';
import { LandValuesRecord } from '../core/records/land.ts';
import { GENESIS } from '../sources/genesis/source.ts';
import { BORIS } from '../sources/boris/source.ts';
import { BORIS_STATES, STATES_WITHOUT } from '../sources/boris/states.ts';
import { LAND_TABLE, landValues } from '../sources/genesis/land-values.ts';

const INGEST =
  `The tenders-ingest job reads the daily OCDS exports of the last ${TENDER_DAYS} publication days (one JSON file per notice in a ZIP, ` +
  'read in memory, member names checked) into the store; request paths never download.';

/** Economy (further types): declarations only (adapters live in their source modules). */
export const ECONOMY_TENDERS_LAND_TYPES: DataType[] = [
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
    record: TenderRecord,
    list: true,
    cache: 'stored',
    example: { city: 'koeln' },
    reads: [{ source: VERGABE, adapter: cityTenders, jobs: [tendersIngest] }],
  }),
  globalType({
    type: 'tenders',
    label: 'Ausschreibungen bundesweit',
    label_en: 'Tenders nationwide',
    group: 'economy',
    summary: `All procurement notices of the last ${TENDER_DAYS} publication days in Germany, newest first, filterable by text and CPV code`,
    description: INGEST + ' q matches title, description, buyer and place (case-insensitive); cpv matches the start of any CPV code.',
    path: '/api/v1/tenders',
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
    example: { params: { cpv: '909' } },
    reads: [{ source: VERGABE, adapter: nationalTenders, jobs: [tendersIngest] }],
  }),
  dataType({
    type: 'land-values',
    label: 'Baulandpreise',
    label_en: 'Land values',
    group: 'economy',
    summary:
      'Building-land prices in the city: the statistical offices’ average purchase price (district-free cities) and the standard land values of the state’s open BORIS service (median and range of residential zones)',
    description:
      `Two parts, each with its own source and licence (building_land_source, standard_land_values.provenance); ok when either has data. ` +
      `(1) Regionaldatenbank table ${LAND_TABLE} (Kaufwerte für Bauland, per district): sales, area, purchase sum and average price per m² ` +
      'of all building land and of building-ready land for the newest year with values; the comparable nationwide figure. It exists per ' +
      'district only, so a city inside a district gets none (building_land_note says so); needs GENESIS credentials. ' +
      `(2) Standard land values (Bodenrichtwerte) from the open BORIS WFS of ${BORIS_STATES.map((s) => s.state).join(', ')}: median, lowest and ` +
      'highest value of the residential building-land zones with the reference date, read keyless. They are set per state by the expert ' +
      'committees with differing zoning practice, so they are not offered for comparison across cities. ' +
      `No open BORIS part for ${Object.keys(STATES_WITHOUT).join(', ')} (standard_land_values_note says why: no open service, ` +
      'shapefile downloads only, or normalised values only). Without GENESIS credentials the BORIS part answers alone (meta.answered_by).',
    record: LandValuesRecord,
    cache: { freshSeconds: 86_400, staleSeconds: 30 * 86_400 },
    compare: { resource: 'land-values', value: 'building_land.price_eur_m2' },
    example: { city: 'berlin' },
    reads: [
      {
        source: GENESIS,
        adapter: landValues,
        parts: [BORIS],
        standIn: {
          source: BORIS,
          adapter: landValues,
          parts: [GENESIS],
          note: 'Standard land values of the state’s BORIS service only (keyless); the building-land price table needs GENESIS credentials.',
        },
      },
    ],
  }),
];
