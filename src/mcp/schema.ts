import { dataSchemaOf, type DataType } from '../core/data-type.ts';
import { paramJsonSchema, type ParamDecl } from '../core/params.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { DEFAULT_CHANNEL_LIMIT, MAX_LIMIT } from '../http/pagination.ts';

/**
 * JSON Schemas of the MCP tools, written as plain JSON Schema (2020-12) so that tools/list is
 * exactly what is measured against the size budget. Input members come from the ParamDecl
 * tables (paramJsonSchema, as OpenAPI shows them); `data` schemas from the records (dataSchemaOf).
 */
export type JsonSchema = Record<string, unknown>;

export interface ObjectSchema {
  [keyword: string]: unknown;
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

export const CITY_PROP: JsonSchema = { type: 'string', description: 'City slug or name in any spelling (München, Munich, koeln).' };

/** limit/page/offset of a paged list; the MCP channel binds lists unless limit is "all". */
export const PAGE_PROPS: Record<string, JsonSchema> = {
  limit: {
    anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_LIMIT }, { const: 'all' }],
    description: `Page size (default ${DEFAULT_CHANNEL_LIMIT}); "all": every item.`,
  },
  page: { type: 'integer', minimum: 1 },
  offset: { type: 'integer', minimum: 0 },
};

export function sortProps(sorts: readonly string[]): Record<string, JsonSchema> {
  return {
    sort: { type: 'string', enum: [...sorts], description: 'Sort field.' },
    order: { type: 'string', enum: ['asc', 'desc'], description: 'Sort order (default asc).' },
  };
}

/** A parameter as the tool shows it: the REST rules (enum, pattern, minimum), with the example value of its data type. */
export function paramProp(d: ParamDecl, dt: DataType): JsonSchema {
  return paramJsonSchema(d, dt.example.params?.[d.name]);
}

/** The same without the example: the tool list stays small, the catalog resource shows examples. */
export function toolParamProp(d: ParamDecl): JsonSchema {
  const { examples: _examples, ...rest } = paramJsonSchema(d);
  return rest;
}

/**
 * One property shared by several data types of a tool: the first declaration's rules, an enum
 * only where all agree, and the data types that take it when not all do.
 */
export function mergeProp(prior: JsonSchema | undefined, next: JsonSchema): JsonSchema {
  if (!prior) return next;
  const merged: JsonSchema = { ...prior };
  // Each data type's own wording (e.g. which network's stop ids) stays visible.
  const said = String(prior.description ?? '').split(' | ');
  if (typeof next.description === 'string' && !said.includes(next.description)) merged.description = [...said, next.description].join(' | ');
  if (JSON.stringify(prior.enum) !== JSON.stringify(next.enum)) delete merged.enum;
  if (prior.pattern !== next.pattern) delete merged.pattern;
  if (prior.type !== next.type) {
    delete merged.type;
    merged.anyOf = [{ type: prior.type }, { type: next.type }];
  }
  return merged;
}

/**
 * A value of one of several JSON types, spelled as `anyOf` of single types: an array-valued
 * `type` is valid JSON Schema, but MCP clients and model APIs that read tool schemas (form
 * builders, function-calling validators) take `type` as one string.
 */
export function anyType(types: readonly string[]): JsonSchema {
  return types.length === 1 ? { type: types[0] } : { anyOf: types.map((type) => ({ type })) };
}

/** Every meta.source_status an answer carries: a data type's four, and error, which compare and the overview give when every part failed. */
const SOURCE_STATUS = ['ok', 'no_data', 'disabled', 'not_covered', 'error'];
/**
 * The JSON types `data` takes across a tool's data types (plus null: no_data, disabled,
 * not_covered). The full schema of each type is the resource stadtdaten://schemas/{data_type}:
 * inline, one type's schema alone is 1-5 KB, and tools/list must stay small.
 */
function dataShape(types: readonly DataType[]): JsonSchema {
  const kinds = new Set<string>(['null']);
  for (const dt of types) kinds.add(String(jsonSchemaOf(dataSchemaOf(dt)).type ?? 'object'));
  return anyType([...kinds].sort());
}

/**
 * A tool's outputSchema: the envelope {data, meta, attribution} with a compact `data` schema, or
 * the problem document {code, hint, ...} of an error result (the SDK client validates both).
 * Kept lean because it is repeated in every tool of tools/list.
 */
export function outputSchema(types: readonly DataType[] | null, data?: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: {
      data: data ?? (types ? dataShape(types) : {}),
      meta: { type: 'object', properties: { source_status: { enum: SOURCE_STATUS } } },
      attribution: anyType(['object', 'array', 'null']),
      code: { type: 'string' },
    },
    anyOf: [{ required: ['data', 'meta'] }, { required: ['code', 'hint'] }],
  };
}
