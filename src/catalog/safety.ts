import { dataType, type DataType } from '../core/data-type.ts';
import { crimeStatsIngest } from '../jobs/crime-stats-ingest.ts';
import { accidentsIngest } from '../jobs/accidents-ingest.ts';
import { CivilProtectionWarningsRecord } from '../core/records/safety.ts';
import { NINA } from '../sources/nina/source.ts';
import { MAX_DETAILS, civilProtectionWarnings } from '../sources/nina/adapters.ts';
import { AccidentsRecord } from '../core/records/accidents.ts';
import { UNFALLATLAS } from '../sources/unfallatlas/source.ts';
import { storedAccidents } from '../sources/unfallatlas/adapters.ts';
import { POINTS_CAP } from '../sources/unfallatlas/points.ts';
import { CrimeStatsRecord } from '../core/records/crime.ts';
import { BKA_PKS } from '../sources/bka-pks/source.ts';
import { storedCrimeStats } from '../sources/bka-pks/adapters.ts';

/** Safety and law: declarations only (adapters live in their source modules). */
export const SAFETY_TYPES: DataType[] = [
  dataType({
    type: 'civil-protection-warnings',
    label: 'Bevölkerungsschutz-Warnungen',
    label_en: 'Civil protection warnings',
    group: 'safety',
    summary: 'Active official warnings (MoWaS, DWD, KATWARN, BIWAPP, flood centres, police) for the city from the NINA warning system',
    description:
      "The NINA dashboard of the city's district: the 12-digit regional key (ARS) with the last seven digits zero, so a city inside a " +
      "district (e.g. Hannover, Aachen) sees the warnings of its district region. Texts are the authorities' own, passed on unchanged " +
      '(descriptions and instructions may contain HTML line breaks). With details=true each warning carries its full CAP message ' +
      `(description, instruction, areas; at most ${MAX_DETAILS} per answer). DWD weather warnings appear here too; the weather-warnings ` +
      'type has them with both languages. No active warning answers no_data.',
    params: [
      {
        name: 'details',
        type: 'string',
        enum: ['true', 'false'],
        default: 'false',
        description: 'true: add the full CAP message (description, instruction, areas) to each warning',
      },
    ],
    record: CivilProtectionWarningsRecord,
    cache: { freshSeconds: 120, staleSeconds: 900 },
    stream: true,
    compare: { resource: 'civil-protection-warnings' },
    example: { city: 'stuttgart', params: { details: 'true' } },
    sources: [{ role: 'primary', source: NINA, adapter: civilProtectionWarnings }],
  }),
  dataType({
    type: 'accidents',
    label: 'Verkehrsunfälle',
    label_en: 'Road accidents',
    group: 'safety',
    summary:
      'Police-recorded road accidents with personal injury in the city for the latest Unfallatlas year: counts by severity, type and road user, plus sample points',
    description:
      'From the yearly Unfallatlas point file of the statistical offices, ingested by the accidents-ingest job (the newest year published ' +
      'on the portal; request paths never download). Rows are matched by their municipality key (ULAND+UREGBEZ+UKREIS+UGEMEINDE = AGS), so ' +
      'every city gets its own accidents, never its district’s; Berlin and Hamburg collect the rows of their Land. Columns are read by ' +
      `header name because their order changes by year. points holds at most ${POINTS_CAP} accidents (about 50 m precision), ` +
      'points_total_available how many the file has. Early years lack some Länder (no_data says so).',
    record: AccidentsRecord,
    cache: 'stored',
    compare: {
      resource: 'accidents',
      summarise: (d) => Object.fromEntries(Object.entries(d as AccidentsRecord).filter(([k]) => k !== 'points')),
      value: 'per_100k_inhabitants',
    },
    example: { city: 'luebeck' },
    sources: [{ role: 'primary', source: UNFALLATLAS, adapter: storedAccidents, jobs: [accidentsIngest] }],
  }),
  dataType({
    type: 'crime-stats',
    label: 'Kriminalstatistik',
    label_en: 'Crime statistics',
    group: 'safety',
    summary:
      'Police-recorded crime in the city for the latest PKS report year: cases, frequency per 100,000 inhabitants and clearance rate, total and by offence group',
    description:
      'The BKA city table of the Polizeiliche Kriminalstatistik ("Grundtabelle Städte, Fälle mit HZ"; cities from 100,000 inhabitants ' +
      'and state capitals), ingested by the crime-stats-ingest job (request paths never download). Rows are matched by the exact 8-digit ' +
      'municipality key, so a city inside a district gets its own row or no_data, never the district figure. Columns are found by header ' +
      'name; the number format (English or German separators) is read from the file. meta.credit is the credit line the BKA requires.',
    record: CrimeStatsRecord,
    cache: 'stored',
    compare: {
      resource: 'crime-stats',
      summarise: (d) => Object.fromEntries(Object.entries(d as CrimeStatsRecord).filter(([k]) => k !== 'offences')),
      value: 'total.per_100k_inhabitants',
    },
    example: { city: 'hannover' },
    sources: [{ role: 'primary', source: BKA_PKS, adapter: storedCrimeStats, jobs: [crimeStatsIngest] }],
  }),
];
