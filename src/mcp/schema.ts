import { z } from 'zod/v4';
import type { ParamDecl } from '../core/params.ts';
import { CITIES } from '../cities/register.ts';
import type { DataType } from '../core/data-type.ts';
import { DEFAULT_CHANNEL_LIMIT, MAX_LIMIT } from '../http/pagination.ts';

/**
 * Tool input schemas from the same ParamDecl tables as the REST routes. The zod schemas check
 * JSON types only; enums, patterns and minimums go into the JSON Schema through `.meta()` and are
 * enforced by the pipeline, so a bad value yields the same problem code and hint as on REST
 * (the SDK's own validation message would carry neither).
 */
export type Shape = Record<string, z.ZodType>;

export function paramSchema(d: ParamDecl): z.ZodType {
  const meta: Record<string, unknown> = { description: d.description };
  if (d.enum) meta.enum = [...d.enum];
  if (d.pattern && d.pattern.flags === '') meta.pattern = d.pattern.source;
  if (d.default !== undefined) meta.default = d.default;
  let s: z.ZodType;
  if (d.type === 'integer') {
    if (d.min !== undefined) meta.minimum = d.min;
    if (d.clampMax !== undefined && !/clamp/i.test(d.description)) meta.description = `${d.description} (values above ${d.clampMax} are clamped)`;
    s = z.number().meta({ ...meta, type: 'integer' });
  } else {
    s = z.string().meta(meta);
  }
  return d.required ? s : s.optional();
}

export const citySchema = z
  .string()
  .min(1)
  .meta({
    description: `City: canonical slug or any common spelling (München, muenchen, Munich, cologne, frankfurt); list_cities names all ${CITIES.length}.`,
  });

/** page/limit/offset/all of a paged list; bound to the channel default unless limit "all" or all true. */
export const PAGE_SHAPE: Shape = {
  page: z.number().meta({ type: 'integer', minimum: 1, description: 'Page number, from 1.' }).optional(),
  limit: z
    .union([z.number().meta({ type: 'integer', minimum: 1 }), z.literal('all')])
    .meta({
      description: `Page size: an integer from 1 (values above ${MAX_LIMIT} give ${MAX_LIMIT}), or "all" for the full list. Default on this channel: ${DEFAULT_CHANNEL_LIMIT}.`,
    })
    .optional(),
  offset: z.number().meta({ type: 'integer', minimum: 0, description: 'Start index; overrides page when above 0.' }).optional(),
  all: z.boolean().meta({ description: 'true returns the full list (same as limit "all").' }).optional(),
};

export const SORT_SHAPE = (sorts: readonly string[]): Shape => ({
  sort: z
    .string()
    .meta({ enum: [...sorts], description: 'Sort field.' })
    .optional(),
  order: z
    .string()
    .meta({ enum: ['asc', 'desc'], description: 'Sort order (default asc).' })
    .optional(),
});

/** Input shape of a data type's tool: city (unless global), its parameter table, paging for lists. */
export function dataTypeShape(dt: DataType): Shape {
  const shape: Shape = {};
  if (dt.scope !== 'global') {
    shape.city = dt.fixedCity ? citySchema.meta({ description: `City; this data type serves ${dt.fixedCity} only (the default).` }).optional() : citySchema;
  }
  if (dt.list) Object.assign(shape, PAGE_SHAPE);
  // The parameter table wins over a paging member of the same name: REST reads both from one query.
  for (const d of dt.params ?? []) shape[d.name] = paramSchema(d);
  return shape;
}
