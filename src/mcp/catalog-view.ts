import type { Catalog } from '../catalog/index.ts';
import {
  coveredCities,
  dataSchemaOf,
  defaultPrimary,
  fullDescription,
  GROUP_LABELS,
  primariesOf,
  routePath,
  toolOf,
  type DataType,
} from '../core/data-type.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { CITIES } from '../cities/register.ts';
import { paramProp } from './schema.ts';
import { toolTable } from './tools.ts';
import { unitsOf } from './units.ts';

const schemas = new WeakMap<DataType, Record<string, unknown>>();

/** The JSON Schema of a data type's `data` (a list of records for list types), as published on REST. */
export function dataJsonSchema(dt: DataType): Record<string, unknown> {
  let s = schemas.get(dt);
  if (!s) {
    s = { title: `${dt.label_en} (${dt.type})`, ...jsonSchemaOf(dataSchemaOf(dt)) };
    schemas.set(dt, s);
  }
  return s;
}

/** The catalog as the stadtdaten://catalog resource: every data type with its tool, arguments and full data schema. */
export function catalogView(catalog: Catalog) {
  const tools = toolTable(catalog);
  const dataTypes = catalog.all.map((dt) => {
    const covered = coveredCities(dt);
    const main = defaultPrimary(dt).source;
    const variants = primariesOf(dt).filter((s) => s.for);
    return {
      type: dt.type,
      label: dt.label,
      label_en: dt.label_en,
      group: GROUP_LABELS[dt.group],
      tool: toolOf(dt),
      path: routePath(dt),
      scope: dt.scope ?? 'city',
      summary: dt.summary,
      description: fullDescription(dt),
      units: unitsOf(dt),
      // The default primary's; `variants` names the sources that answer for named cities (or values).
      source: main.id,
      license: main.license,
      tier: main.tier,
      ...(variants.length
        ? {
            variants: variants.map((s) => ({
              ...(dt.scope === 'global' ? { values: s.for } : { cities: s.for }),
              source: s.source.id,
              license: s.source.license,
              tier: s.source.tier,
            })),
          }
        : {}),
      list: dt.list !== undefined,
      live: dt.live !== undefined,
      compare_resource: dt.compare?.resource ?? null,
      covered_cities: covered ? [...covered].sort() : null,
      example: dt.example,
      params: (dt.params ?? []).map((p) => ({ name: p.name, required: p.required === true, ...paramProp(p, dt) })),
      data_schema: dataJsonSchema(dt),
    };
  });
  return {
    data: {
      data_types: dataTypes,
      tools: tools.map((t) => ({ tool: t.name, title: t.title, data_types: t.types.map((dt) => dt.type) })),
    },
    meta: {
      source_status: 'ok',
      data_types_total: dataTypes.length,
      tools_total: tools.length,
      cities_total: CITIES.length,
      catalog: catalog.counts.text,
      note: 'Generated from the catalog: every data type is one REST path and one data_type of one MCP tool.',
    },
  };
}
