import { dataType, type DataType } from '../core/data-type.ts';
import { CivilProtectionWarningsRecord } from '../core/records/safety.ts';
import { NINA } from '../sources/nina/source.ts';
import { MAX_DETAILS, civilProtectionWarnings } from '../sources/nina/adapters.ts';

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
    source: NINA,
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
    compare: { resource: 'civil-protection-warnings' },
    example: { city: 'stuttgart', params: { details: 'true' } },
    adapter: civilProtectionWarnings,
  }),
];
