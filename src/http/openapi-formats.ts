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
      (formats.includes('csv')
        ? ' CSV: RFC 4180, UTF-8, comma-separated, CRLF, a header row; columns derived from the record schema (nested names dotted, arrays as JSON text); bom=1 starts the file with a UTF-8 BOM (for spreadsheet programs).'
        : ''),
    schema: { type: 'string', enum: [...formats], default: 'json' },
  });
  return [name, make];
}

const ANY_OBJECT = { type: 'object', additionalProperties: {} };
const FEATURES_DESCRIPTION =
  'RFC 7946 FeatureCollection (WGS 84, [lon, lat]): a Feature per list item, properties = its fields. Foreign members: meta and attribution as in the JSON envelope; record = the members beside the list.';

/** A data type's GeoJSON answer, its rows untyped: the envelope's meta and attribution ride along as foreign members. */
export const FEATURE_COLLECTION: Json = {
  type: 'object',
  description: FEATURES_DESCRIPTION,
  required: ['type', 'features', 'meta', 'attribution'],
  properties: {
    type: { const: 'FeatureCollection' },
    meta: { $ref: '#/components/schemas/Meta' },
    attribution: { $ref: '#/components/schemas/Attribution' },
    record: ANY_OBJECT,
    features: { type: 'array', items: { $ref: '#/components/schemas/Feature' } },
  },
};

/** One row: its geometry (the source's own, else a Point from its position, else null) and its columns. */
export const FEATURE: Json = {
  type: 'object',
  required: ['type', 'geometry', 'properties'],
  properties: {
    type: { const: 'Feature' },
    geometry: { anyOf: [{ $ref: '#/components/schemas/Geometry' }, { type: 'null' }] },
    properties: ANY_OBJECT,
  },
};

/** The GeoJSON answer of compare: a Feature per city at its register point (its properties: the CSV columns), each naming its own licence. */
export function compareFeatures(): Json {
  const { meta: _meta, attribution: _attribution, record: _record, ...rest } = FEATURE_COLLECTION.properties as Json;
  return {
    ...FEATURE_COLLECTION,
    description: 'RFC 7946 FeatureCollection: a Feature per city at its register point, properties = the CSV columns with their JSON values',
    properties: { ...rest, meta: { ...ANY_OBJECT, description: "The JSON answer's meta" }, attribution: { type: 'null' } },
  };
}

export const GEOMETRY: Json = {
  type: 'object',
  description: 'RFC 7946 geometry; positions [lon, lat]',
  required: ['type', 'coordinates'],
  properties: {
    type: { enum: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] },
    coordinates: { type: 'array', items: {} },
  },
};

/**
 * A data type's GeoJSON answer: the FeatureCollection with each feature's properties typed by
 * its row (`record`, the members beside a list inside a record, stays an open object).
 */
export function typedFeatures(properties: Json): Json {
  return { allOf: [{ $ref: '#/components/schemas/FeatureCollection' }], properties: { features: { type: 'array', items: { properties: { properties } } } } };
}

/** The 200 media types besides JSON; `features` names the GeoJSON answer's component. */
export function formatContent(formats: readonly Format[], features = 'FeatureCollection'): Json {
  const out: Json = {};
  // What the CSV holds is said once, in the format parameter.
  if (formats.includes('csv')) out['text/csv'] = { schema: { type: 'string' } };
  if (formats.includes('geojson')) out['application/geo+json'] = { schema: { $ref: `#/components/schemas/${features}` } };
  return out;
}
