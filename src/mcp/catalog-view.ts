import type { Catalog } from '../catalog/index.ts';
import { coveredCities, GROUP_LABELS, routePath } from '../core/data-type.ts';
import { CITIES } from '../cities/register.ts';
import { toolTable } from './tools.ts';

/** The catalog as the stadtdaten://catalog resource: what exists, under which tool and path. */
export function catalogView(catalog: Catalog) {
  const tools = toolTable(catalog);
  const dataTypes = catalog.all.map((dt) => {
    const covered = coveredCities(dt);
    return {
      type: dt.type,
      label: dt.label,
      label_en: dt.label_en,
      group: GROUP_LABELS[dt.group],
      tool: dt.tool,
      path: routePath(dt),
      scope: dt.scope ?? 'city',
      summary: dt.summary,
      source: dt.source.id,
      license: dt.source.license,
      tier: dt.source.tier,
      list: dt.list !== undefined,
      live: dt.live !== undefined,
      compare_resource: dt.compare?.resource ?? null,
      covered_cities: covered ? [...covered].sort() : null,
      params: (dt.params ?? []).map((p) => ({ name: p.name, type: p.type, required: p.required === true, ...(p.enum ? { enum: p.enum } : {}) })),
    };
  });
  return {
    data: {
      data_types: dataTypes,
      fixed_tools: tools.filter((t) => !t.dataType).map((t) => ({ tool: t.name, title: t.title, description: t.description })),
    },
    meta: {
      source_status: 'ok',
      data_types_total: dataTypes.length,
      tools_total: tools.length,
      cities_total: CITIES.length,
      note: 'Generated from the catalog: every data type is one REST path and one MCP tool.',
    },
  };
}
