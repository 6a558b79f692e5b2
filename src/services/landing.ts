import { examplePath, GROUP_LABELS, routePath, streamCadence, type DataType } from '../core/data-type.ts';
import { exampleForm } from '../core/forms.ts';
import { answersSomewhere } from '../pipeline/source-state.ts';
import { esc, htmlPage } from '../http/html.ts';
import { VERSION } from '../core/version.ts';
import { CITY_BY_SLUG } from '../cities/register.ts';
import { compareResources } from './compare.ts';
import { healthState } from './health.ts';
import { mcpClientConfigs } from './mcp-clients.ts';
import type { ServiceContext } from './context.ts';
import { MEDIA_TYPES } from '../http/formats/negotiate.ts';
import { META_HEADERS } from '../http/formats/send.ts';

/** Data types the landing page prefers as examples: keyless, quick to read, different topics. */
const PREFERRED_EXAMPLES = ['weather', 'air', 'demographics', 'unemployment', 'charging'];

/** Example links that work on this instance: data types whose example request a usable source answers. */
export function exampleLinks({ rt }: Pick<ServiceContext, 'rt'>): { label: string; path: string }[] {
  const enabled = (dt: DataType) => rt.answering(exampleForm(dt)) !== null && dt.scope !== 'global';
  const picked: DataType[] = [];
  for (const type of PREFERRED_EXAMPLES) {
    const dt = rt.catalog.byType.get(type);
    if (dt && enabled(dt) && picked.length < 2) picked.push(dt);
  }
  for (const dt of rt.catalog.all) if (picked.length < 2 && enabled(dt) && !picked.includes(dt)) picked.push(dt);
  const links = picked.map((dt) => ({ label: `${dt.label_en} in ${cityName(dt.example.city)}`, path: examplePath(dt) }));
  const city = picked[0]?.example.city ?? 'koeln';
  links.push({ label: `Overview of every data type for ${cityName(city)}`, path: `/api/v1/cities/${city}/overview` });
  return links;
}

/** Streaming types the live example prefers: keyless, changing often, per city. */
const PREFERRED_STREAMS = ['parking', 'sharing', 'water-level'];

/** The live example: a data type that streams (Server-Sent Events) and can answer here, with its example request. */
export function liveExample({ rt }: Pick<ServiceContext, 'rt'>): { label: string; path: string } | null {
  const usable = (dt: DataType | undefined): dt is DataType =>
    dt !== undefined && streamCadence(dt) !== null && rt.answering(exampleForm(dt)) !== null && dt.scope !== 'global';
  const dt = PREFERRED_STREAMS.map((t) => rt.catalog.byType.get(t)).find(usable) ?? rt.catalog.all.find(usable);
  return dt ? { label: `${dt.label_en} in ${cityName(dt.example.city)}`, path: examplePath(dt) } : null;
}

/**
 * The landing page's live section: EventSource on a streaming type, each event's time and
 * meta.source_status appended to a list. The path is JSON-encoded into the script and escaped
 * for HTML, so no value ends the script element.
 */
function liveSection(live: { label: string; path: string } | null): string {
  if (!live) return '';
  const path = JSON.stringify(live.path).replace(/</g, '\\u003c');
  return `<h2>Live updates</h2>
<p>Live data types stream as Server-Sent Events: the current envelope at once, then a new one whenever it changes
(<code>Accept: text/event-stream</code>, or the data path plus <code>/stream</code>; resume with <code>Last-Event-ID</code>).
In a browser: <code>new EventSource('${esc(live.path)}')</code>.</p>
<p><button id="live-start" type="button">Watch ${esc(live.label)}</button></p>
<ol id="live-events"></ol>
<script>
document.getElementById('live-start').addEventListener('click', () => {
  const list = document.getElementById('live-events');
  const show = (e) => {
    const env = JSON.parse(e.data);
    const li = document.createElement('li');
    li.textContent = new Date().toLocaleTimeString() + ' ' + (e.type === 'reset' ? 'reset' : 'event') + ' ' + e.lastEventId + ': ' + env.meta.type + ' ' + env.meta.source_status + (Array.isArray(env.data) ? ', ' + env.data.length + ' items' : '');
    list.appendChild(li);
  };
  const source = new EventSource(${path});
  source.onmessage = show;
  source.addEventListener('reset', show);
  window.liveSource = source;
}, { once: true });
</script>`;
}

function cityName(slug: string | undefined): string {
  return (slug && CITY_BY_SLUG.get(slug)?.name) ?? slug ?? 'Germany';
}

/** How to ask for CSV or GeoJSON (docs/contract.md, "Formats"). */
const FORMATS_HOWTO = {
  how: 'Add ?format=csv or ?format=geojson to a data type or compare request, or send Accept: text/csv or Accept: application/geo+json; JSON is the default (?format=json, Accept: application/json or */*).',
  media_types: MEDIA_TYPES,
  offered:
    'CSV for every list and every record without nested lists; GeoJSON for every list whose items have lat/lon; compare offers both. Another format is a 406 problem naming those the route offers; the OpenAPI document lists them per operation.',
  headers: [...META_HEADERS, 'Link (rel="license")'],
};

/** `GET /api/v1`: where everything is, for programs. */
export function apiIndex(ctx: ServiceContext) {
  const { rt } = ctx;
  return {
    data: {
      name: 'Stadtdaten',
      version: VERSION,
      description: 'Keyless, read-only REST API and MCP server for the open data of the 84 largest German cities.',
      catalog: rt.catalog.counts.text,
      links: {
        cities: '/api/v1/cities',
        city: '/api/v1/cities/{city}',
        overview: '/api/v1/cities/{city}/overview',
        compare: '/api/v1/compare?resource={resource}&cities={city},{city}',
        coverage: '/api/v1/coverage',
        sources: '/api/v1/sources',
        health: '/api/v1/health',
        problems: '/api/v1/problems',
        openapi_json: '/api/v1/openapi.json',
        openapi_yaml: '/api/v1/openapi.yaml',
        docs: '/docs',
        coverage_page: '/coverage',
        mcp: '/mcp',
      },
      examples: exampleLinks(ctx).map((l) => l.path),
      compare_resources: compareResources(rt.catalog),
      formats: FORMATS_HOWTO,
      data_types: rt.catalog.all.map((dt) => ({
        type: dt.type,
        label_en: dt.label_en,
        group: GROUP_LABELS[dt.group],
        path: routePath(dt),
        example: examplePath(dt),
        enabled: answersSomewhere(rt, dt),
      })),
    },
    meta: { source_status: 'ok', ...(rt.config.demo ? { demo: true } : {}) },
    attribution: null,
  };
}

/** `GET /`: what this is, where to start, how to plug it into an MCP client, and whether it is healthy. */
export async function landingHtml(ctx: ServiceContext, origin: string): Promise<string> {
  const { rt } = ctx;
  const health = await healthState(ctx);
  const examples = exampleLinks(ctx)
    .map((l) => `<li><a href="${esc(l.path)}">${esc(l.label)}</a> <code>${esc(l.path)}</code></li>`)
    .join('\n');
  const clients = mcpClientConfigs(origin, '<repo>');
  const stdio = JSON.stringify(clients.stdio, null, 2);
  const http = JSON.stringify(clients.http, null, 2);
  const disabled = health.sources.disabled.length ? ` Disabled (missing credentials or switched off): ${health.sources.disabled.map(esc).join(', ')}.` : '';
  const breakers = health.sources.open_breakers.length ? ` Upstream breaker open: ${health.sources.open_breakers.map(esc).join(', ')}.` : '';
  const failing = health.sources.failing.length;
  const answering = ` Of the enabled sources ${health.sources.answering} answer now, <strong id="failing">${failing} failing</strong>${failing ? ` (${health.sources.failing.map(esc).join(', ')})` : ''}, ${health.sources.untried} not asked since start.`;
  const body = `<h1>Stadtdaten</h1>
<p>One normalised, keyless, read-only view of the open data of Germany's 84 largest cities: weather, air, transport, population,
economy and more, every answer in the envelope <code>{data, meta, attribution}</code> with an honest <code>meta.source_status</code>.
${esc(rt.catalog.counts.text)}.</p>
<h2>Try it</h2>
<ul id="examples">
${examples}
</ul>
${liveSection(liveExample(ctx))}
<h2>Find your way</h2>
<ul>
<li><a href="/docs">Interactive API docs</a> (Swagger UI, "Try it out" calls this instance)</li>
<li><a href="/coverage">Coverage matrix</a>: which data type answers in which city</li>
<li><a href="/explore">Explorer</a>: each city on a map, its current values, history charts and a request builder (for example <a href="/explore/koeln">Köln</a>)</li>
<li><a href="/api/v1/openapi.json">OpenAPI 3.1 (JSON)</a> and <a href="/api/v1/openapi.yaml">(YAML)</a></li>
<li><a href="/api/v1">API index</a> (JSON), <a href="/api/v1/cities">cities</a>, <a href="/api/v1/sources">sources and credentials</a>, <a href="/api/v1/problems">error codes</a></li>
</ul>
<h2>Use it from an MCP client</h2>
<p>Local (stdio), the process runs on your machine:</p>
<pre>${esc(stdio)}</pre>
<p>Over HTTP (Streamable HTTP at <code>/mcp</code> on this instance):</p>
<pre>${esc(http)}</pre>
<h2>Health</h2>
<p id="health" data-status="${esc(health.status)}">Status <strong>${esc(health.status)}</strong>${health.demo ? ' (demo mode)' : ''}, version ${esc(health.version)};
store ${esc(health.store.kind)} ${health.store.reachable ? 'reachable' : 'unreachable'}; ${health.sources.enabled} of ${health.sources.total} sources enabled.${answering}${disabled}${breakers}
Details: <a href="/api/v1/health">/api/v1/health</a>.</p>`;
  return htmlPage({ title: 'Stadtdaten', body, demo: health.demo });
}
