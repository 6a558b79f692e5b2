import { z } from 'zod/v4';
import { DEPRECATED_ALIASES, RAW_KEYS } from './normalise.ts';

/**
 * The one schema library of the contract (zod 4, via zod/v4). Every record schema is built
 * from these helpers, so descriptions, units and nullability look the same everywhere, and
 * the published schema (OpenAPI, MCP outputSchema, the conformance test) adds the deprecated
 * field names in one place: `published()`.
 */
export { z };

/**
 * zod 3.25's zod/v4 keeps the metadata of every schema given `.meta()` or `.describe()` in its
 * global registry, a strong Map: each schema ever built would stay for good, and so would all it
 * refers to. A WeakMap (what zod itself uses from 4.1.8 on) keeps the metadata exactly as long as
 * the schema. zod iterates only the registry's id map (schemas with an `id`), which this project
 * never fills. Schemas are still built once (lazy, dataSchemaOf); this makes a slip cost time, not memory.
 */
const registry = z.globalRegistry as unknown as { _map: unknown };
if (registry._map instanceof Map) registry._map = new WeakMap([...(registry._map as Map<object, unknown>)]);

export interface FieldMeta {
  [key: string]: unknown;
  description: string;
  /** Unit of a numeric value, as written in answers' field names: °C, %, km/h, hPa, km, kW, EUR ... */
  unit?: string;
}

const meta = (description: string, unit?: string): FieldMeta => (unit ? { description, unit } : { description });

/** A number that the source may lack (null). */
export const num = (description: string, unit?: string) => z.number().nullable().meta(meta(description, unit));
/** An integer that the source may lack (null). */
export const int = (description: string, unit?: string) => z.number().int().nullable().meta(meta(description, unit));
/** A text that the source may lack (null). */
export const text = (description: string) => z.string().nullable().meta(meta(description));
/** A zoned ISO 8601 timestamp (Europe/Berlin offset) or null. */
export const time = (description: string) => z.iso.datetime({ offset: true }).nullable().meta(meta(description));
/** A calendar date YYYY-MM-DD or null. */
export const date = (description: string) => z.iso.date().nullable().meta(meta(description));
export const bool = (description: string) => z.boolean().nullable().meta(meta(description));
/** One of a fixed set of values, or null. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, description: string) => z.enum(values).nullable().meta(meta(description));
/** A five-character German post code (leading zero kept) or null. */
export const postCode = () => z.string().length(5).nullable().meta(meta('Post code: five characters, leading zero kept'));
export const lat = () => z.number().min(-90).max(90).nullable().meta(meta('Latitude (WGS 84)', '°'));
export const lon = () => z.number().min(-180).max(180).nullable().meta(meta('Longitude (WGS 84)', '°'));
/** A record of named fields; unknown keys are a contract violation. */
export const record = <S extends z.ZodRawShape>(shape: S, description?: string) => {
  const o = z.strictObject(shape);
  return description ? o.meta({ description }) : o;
};
/** A list of records. */
export const list = <T extends z.ZodType>(item: T, description: string) => z.array(item).meta(meta(description));
/** An upstream's original fields kept verbatim (the spec's `raw`), not part of the vocabulary. */
export const raw = (description: string) => z.record(z.string(), z.unknown()).nullable().meta(meta(description));

const ALIASES_OF: Record<string, string[]> = {};
for (const [old, canonical] of Object.entries(DEPRECATED_ALIASES)) (ALIASES_OF[canonical] ??= []).push(old);

function described<T extends z.ZodType>(next: T, from: z.ZodType): T {
  const m = from.meta();
  return (m ? next.meta(m) : next) as T;
}

/**
 * The schema of what is sent: the canonical schema plus, on every object, the deprecated names
 * the normaliser emits beside their canonical twins (same type, `deprecated: true`, not required).
 */
export function published(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      shape[key] = RAW_KEYS.has(key) ? value : published(value);
      for (const old of ALIASES_OF[key] ?? []) {
        if (old in schema.shape) continue;
        // Not required: a deprecated name goes away after its notice (docs/contract.md), so clients must not count on it.
        shape[old] = published(value)
          .optional()
          .meta({ description: `Deprecated since 2026-07-25: same value as ${key}`, deprecated: true });
      }
    }
    return described(z.strictObject(shape), schema);
  }
  if (schema instanceof z.ZodNullable) return described(published(schema.unwrap() as z.ZodType).nullable(), schema);
  if (schema instanceof z.ZodOptional) return described(published(schema.unwrap() as z.ZodType).optional(), schema);
  if (schema instanceof z.ZodArray) return described(z.array(published(schema.element as z.ZodType)), schema);
  if (schema instanceof z.ZodRecord) return described(z.record(schema.keyType as z.ZodString, published(schema.valueType as z.ZodType)), schema);
  if (schema instanceof z.ZodUnion) return described(z.union((schema.options as z.ZodType[]).map(published)), schema);
  return schema;
}

/** JSON Schema (2020-12, as OpenAPI 3.1 and MCP use it) of a published schema. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}

/**
 * A record schema built on first use, not at import: zod instances are heavy (each carries its
 * own method closures), and a serving process needs the schemas only for the OpenAPI document,
 * MCP and the conformance test. Records are declared `lazy(() => record({...}))` and called
 * (`StationRecord()`) where one is composed into another.
 */
export function lazy<S extends z.ZodType>(build: () => S): () => S {
  let built: S | undefined;
  return () => (built ??= build());
}

/** The data type of a lazily built schema. */
export type Infer<T extends () => z.ZodType> = z.infer<ReturnType<T>>;
