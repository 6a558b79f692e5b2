import { resolveCity } from '../cities/resolve.ts';
import { coveredCities, dataSchemaOf, routePath, streamCadence, toolOf, type DataType } from '../core/data-type.ts';
import { formatsOf } from '../core/formats.ts';
import { jsonSchemaOf } from '../core/schema.ts';
import { cityCoverage, type CityCoverageItem } from './coverage.ts';
import { recordableTypes } from './history-answers.ts';
import type { ServiceContext } from './context.ts';
import type { ExplorerModel } from '../web/wire.ts';

/**
 * What the explorer page of one city shows, derived from the catalog and what is cached now (the
 * per-city coverage peek): never an upstream call. The page's script then makes the API's
 * ordinary requests for the parts it draws (GeoJSON layers, current values, history).
 */

/** A path segment other than the city (a trip, a route): such a type needs an id the page does not have. */
function needsId(dt: DataType): boolean {
  return [...routePath(dt).matchAll(/\{(\w+)\}/g)].some((m) => m[1] !== 'slug' && m[1] !== 'city');
}

const fieldCache = new WeakMap<DataType, { path: string; unit: string }[]>();

/** The numbers with a unit in a type's record (or list item), top level and one object deep, as dotted paths. */
function unitFields(dt: DataType): { path: string; unit: string }[] {
  let out = fieldCache.get(dt);
  if (out) return out;
  out = [];
  let schema = jsonSchemaOf(dataSchemaOf(dt)) as Record<string, unknown>;
  if (schema.type === 'array' && schema.items) schema = schema.items as Record<string, unknown>;
  if (typeof dt.list === 'string') {
    const inner = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[dt.list];
    if (inner?.items) schema = inner.items as Record<string, unknown>;
  }
  const numeric = (p: Record<string, unknown>) => {
    const t = p.type ?? (Array.isArray(p.anyOf) ? (p.anyOf as Record<string, unknown>[]).map((x) => x.type) : undefined);
    const types = Array.isArray(t) ? t : [t];
    return types.includes('number') || types.includes('integer');
  };
  const walk = (s: Record<string, unknown>, prefix: string, depth: number) => {
    const props = (s.properties ?? {}) as Record<string, Record<string, unknown>>;
    for (const [k, p] of Object.entries(props)) {
      if (numeric(p) && typeof p.unit === 'string') out!.push({ path: prefix + k, unit: p.unit });
      else if (depth < 1 && (p.properties || Array.isArray(p.anyOf))) {
        const obj = p.properties ? p : (p.anyOf as Record<string, unknown>[]).find((x) => x.properties);
        if (obj) walk(obj, `${prefix}${k}.`, depth + 1);
      }
    }
  };
  walk(schema, '', 0);
  // The recorded fields first: they are the type's headline numbers.
  const recorded = dt.history?.fields.map((f) => f.name) ?? [];
  out.sort((a, b) => (recorded.includes(b.path) ? 1 : 0) - (recorded.includes(a.path) ? 1 : 0));
  fieldCache.set(dt, out);
  return out;
}

function reasonOf(item: CityCoverageItem, dt?: DataType): string | undefined {
  if (item.cell === 'disabled') return 'its source is disabled on this server (credentials missing or switched off)';
  const covered = dt ? coveredCities(dt) : null;
  return item.note ?? (covered ? `covers ${covered.join(', ')} only` : undefined);
}

function withFormat(path: string, format: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}format=${format}`;
}

export type { ExplorerModel };

export async function explorerModel(ctx: ServiceContext, raw: string): Promise<ExplorerModel> {
  const { rt } = ctx;
  const city = resolveCity(raw);
  const { data } = await cityCoverage(ctx, city.slug);
  const byType = new Map(data.items.map((i) => [i.type, i]));
  const usable = (i: CityCoverageItem | undefined) => i !== undefined && i.cell !== 'not_covered' && i.cell !== 'disabled';
  const types = rt.catalog.all.filter((dt) => dt.scope !== 'global' && byType.has(dt.type));

  const geo = byType.get('geo');
  const boundary = {
    path: `/api/v1/cities/${city.slug}/geo`,
    state: usable(geo) ? 'idle' : (geo?.cell ?? 'not_covered'),
    ...(geo && !usable(geo) ? { reason: reasonOf(geo) } : {}),
  };

  const layers = types
    .filter((dt) => formatsOf(dt).includes('geojson') && !needsId(dt))
    .map((dt) => {
      const item = byType.get(dt.type)!;
      const state = item.cell === 'not_covered' ? ('not_covered' as const) : item.cell === 'disabled' ? ('disabled' as const) : ('idle' as const);
      return {
        type: dt.type,
        label: dt.label_en,
        path: withFormat(item.path, 'geojson'),
        state,
        ...(state !== 'idle' ? { reason: reasonOf(item, dt) } : {}),
        cached: item.cache_status !== undefined || item.note?.startsWith('read per request') === true,
      };
    });

  const values = types
    .filter((dt) => usable(byType.get(dt.type)) && !needsId(dt))
    .filter((dt) => dt.history || dt.highlight || (streamCadence(dt) !== null && !formatsOf(dt).includes('geojson')))
    .map((dt) => {
      const cadence = streamCadence(dt);
      const fresh = dt.cache === 'stored' ? 60 : dt.cache.freshSeconds;
      return {
        type: dt.type,
        label: dt.label_en,
        path: byType.get(dt.type)!.path,
        mode: cadence !== null ? ('live' as const) : ('polled' as const),
        /** Its cached answer is ok: a stream for it shows values at once. */
        ok: byType.get(dt.type)!.source_status === 'ok',
        refresh: Math.max(60, Math.min(fresh, 3600)),
        list: dt.list ?? false,
        fields: unitFields(dt),
      };
    });

  const history = recordableTypes(rt.catalog)
    .filter((dt) => usable(byType.get(dt.type)))
    .map((dt) => ({
      type: dt.type,
      label: dt.label_en,
      path: `/api/v1/cities/${city.slug}/${dt.type}/history`,
      fields: dt.history!.fields.map((f) => ({ name: f.name, unit: f.unit })),
    }));

  const builder = types
    .filter((dt) => usable(byType.get(dt.type)))
    .map((dt) => ({
      type: dt.type,
      label: dt.label_en,
      template: routePath(dt),
      path: byType.get(dt.type)!.path,
      tool: toolOf(dt),
      formats: formatsOf(dt),
      params: (dt.params ?? []).map((p) => ({
        name: p.name,
        type: p.type,
        required: p.required === true,
        in: routePath(dt).includes(`{${p.name}}`) ? 'path' : 'query',
        description: p.description,
        ...(p.enum ? { enum: p.enum } : {}),
        ...(p.default !== undefined ? { default: p.default } : {}),
        ...((dt.example.params?.[p.name] ?? p.example) !== undefined ? { example: dt.example.params?.[p.name] ?? p.example } : {}),
      })),
    }));

  const tiles = rt.config.mapTilesUrl
    ? { url: rt.config.mapTilesUrl, attribution: rt.config.mapTilesAttribution.replace('{year}', String(new Date().getFullYear())) }
    : null;
  return { city: { slug: city.slug, name: city.name, lat: city.lat, lon: city.lon }, boundary, layers, values, history, builder, tiles };
}
