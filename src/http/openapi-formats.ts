import { FORMATS, type Format } from '../core/formats.ts';
import { MEDIA_TYPES } from './formats/negotiate.ts';
import { META_HEADERS } from './formats/send.ts';

type Json = Record<string, unknown>;

/**
 * The OpenAPI side of the formats (core/formats.ts): the `format` parameter, the media types of
 * a 200 beside JSON, and the headers a CSV answer carries its meta in.
 */

/** The shared parameter's name for a set of formats (`FormatJsonCsv`) and the parameter itself. */
export function formatParameter(formats: readonly Format[]): [name: string, make: () => Json] {
  const name = 'Format' + formats.map((f) => f[0]!.toUpperCase() + f.slice(1)).join('');
  const make = () => ({
    name: 'format',
    in: 'query',
    required: false,
    description:
      `Answer format (default json; wins over the Accept header, which works too: ${formats.map((f) => MEDIA_TYPES[f]).join(', ')}). ` +
      `Other known formats (${FORMATS.join(', ')}) answer 406 here, unknown values 422. CSV and GeoJSON answers carry the meta in the headers ` +
      `${META_HEADERS.join(', ')} (non-ASCII percent-encoded) and Link rel="license"; GeoJSON also in its members meta and attribution.` +
      (formats.includes('csv') ? ' With CSV, bom=1 starts the file with a UTF-8 BOM (for spreadsheet programs).' : ''),
    schema: { type: 'string', enum: [...formats], default: 'json' },
  });
  return [name, make];
}

/** The GeoJSON answer: a FeatureCollection with the envelope's meta and attribution as foreign members. */
export const FEATURE_COLLECTION: Json = {
  type: 'object',
  description:
    'RFC 7946 FeatureCollection (WGS 84, [lon, lat]); one Feature per list item, properties = the CSV columns. Foreign members: meta and attribution as in the JSON envelope, record = the members beside the list where it sits inside a record.',
  required: ['type', 'features', 'meta', 'attribution'],
  properties: {
    type: { const: 'FeatureCollection' },
    meta: { type: 'object', description: "The JSON answer's meta (source_status, fetched_at, as_of, pagination, ...)" },
    attribution: { description: "The JSON answer's attribution (null on compare: each feature names its own)" },
    record: { type: 'object' },
    features: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'geometry', 'properties'],
        properties: { type: { const: 'Feature' }, geometry: { oneOf: [{ type: 'object' }, { type: 'null' }] }, properties: { type: 'object' } },
      },
    },
  },
};

/** The 200 media types besides JSON. */
export function formatContent(formats: readonly Format[]): Json {
  const out: Json = {};
  if (formats.includes('csv')) out['text/csv'] = { schema: { $ref: '#/components/schemas/CsvTable' } };
  if (formats.includes('geojson')) out['application/geo+json'] = { schema: { $ref: '#/components/schemas/FeatureCollection' } };
  return out;
}

/** The CSV answer. */
export const CSV_TABLE: Json = {
  type: 'string',
  description: 'RFC 4180 CSV: UTF-8, comma-separated, CRLF, header row; columns derived from the record schema (nested names dotted, arrays as JSON text)',
};
