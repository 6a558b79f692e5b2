import { dataType, globalType, type DataType } from '../core/data-type.ts';
import { TenderRecord } from '../core/records/tenders.ts';
import { VERGABE } from '../sources/vergabe/source.ts';
import { cityTenders, nationalTenders } from '../sources/vergabe/adapters.ts';
import { TENDER_DAYS } from '../sources/vergabe/stored.ts';

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
];
