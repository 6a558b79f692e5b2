import { CITIES } from '../cities/register.ts';
import { coveredCities, routePath, toolOf, GROUP_LABELS } from '../core/data-type.ts';
import type { Envelope, ServiceContext } from './context.ts';

/** Which data type is available in which city, generated from the catalog. */
function coverageRows({ rt }: ServiceContext) {
  return rt.catalog.all
    .filter((dt) => dt.scope !== 'global')
    .map((dt) => {
      const cities = coveredCities(dt);
      return {
        type: dt.type,
        label: dt.label,
        label_en: dt.label_en,
        group: GROUP_LABELS[dt.group],
        path: routePath(dt),
        tool: toolOf(dt),
        source: dt.source.id,
        tier: dt.source.tier,
        enabled: rt.sourceEnabled(dt.source),
        partial: cities !== null,
        covered_cities: cities ? [...cities].sort() : CITIES.map((c) => c.slug),
        covered_count: cities ? cities.length : CITIES.length,
        note: dt.coverage?.note ?? (dt.fixedCity ? `served for ${dt.fixedCity} only` : null),
      };
    });
}

function summary(types: ReturnType<typeof coverageRows>, { rt }: ServiceContext) {
  return {
    source_status: 'ok',
    data_types: rt.catalog.counts.per_city,
    catalog: rt.catalog.counts.text,
    partial: types.filter((t) => t.partial).length,
    cities_total: CITIES.length,
  };
}

export function coverage(ctx: ServiceContext): Envelope {
  const types = coverageRows(ctx);
  return {
    data: types,
    meta: summary(types, ctx),
    attribution: null,
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The public coverage web page: one row per data type, partial ones with their cities. */
export function coverageHtml(ctx: ServiceContext): string {
  const types = coverageRows(ctx);
  const meta = summary(types, ctx);
  const rows = types
    .map(
      (t) =>
        `<tr><td>${esc(t.group)}</td><td><code>${esc(t.type)}</code><br>${esc(t.label_en)}</td><td><code>${esc(t.path)}</code></td><td>${t.tier}</td><td>${t.enabled ? 'yes' : 'disabled on this server'}</td><td>${t.partial ? `${t.covered_count} of ${meta.cities_total}: ${t.covered_cities.map(esc).join(', ')}${t.note ? `<br><small>${esc(t.note)}</small>` : ''}` : `all ${meta.cities_total}`}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stadtdaten coverage</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left}</style></head>
<body><h1>Coverage</h1><p>${esc(meta.catalog)}. Per city, ${meta.data_types} data types for ${meta.cities_total} cities; ${meta.partial} of them partial. A city outside a partial data type's coverage gets <code>source_status=not_covered</code> with <code>meta.covered_cities</code>. Machine-readable: <a href="/api/v1/coverage">/api/v1/coverage</a>.</p>
<table><thead><tr><th>Group</th><th>Data type</th><th>Path</th><th>Tier</th><th>Enabled</th><th>Cities</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}
