import { CITIES } from '../cities/register.ts';
import { esc, htmlPage } from '../http/html.ts';
import type { WebEntry } from '../http/web-assets.ts';
import { explorerModel } from './explorer.ts';
import type { ServiceContext } from './context.ts';

/** Where the explorer's bundled files are served (content-hashed names, immutable). */
export const EXPLORER_ASSETS = '/explore/assets/';

/** The explorer's entry in src/web (bundled by http/web-assets.ts). */
export const EXPLORER_ENTRY = { explorer: 'explorer.ts' } as const;

/**
 * The page allows scripts and styles from this origin only (the components set styles through the
 * DOM, which a CSP does not restrict; the layout's one style element needs 'unsafe-inline'), data:
 * images (Leaflet's inlined icons) and, when one is configured, the basemap's tile origin.
 */
export function explorerCsp(tilesUrl: string | null): string {
  const tiles = tilesUrl ? ` ${new URL(tilesUrl.replace(/[{}]/g, '')).origin}` : '';
  return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:${tiles}; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`;
}

const STYLE = `<style>
main{max-width:80rem}
.ex-grid{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1.2rem;align-items:start}
@media (max-width:60rem){.ex-grid{grid-template-columns:minmax(0,1fr)}}
.ex-section{margin:1.2rem 0}
.ex-ranges{display:flex;gap:.4rem;flex-wrap:wrap;margin:.4rem 0 .8rem}
.ex-ranges button{font:inherit;padding:.25rem .7rem;border:1px solid #4b5563;border-radius:3px;background:#fff;color:#1f2937;cursor:pointer}
.ex-ranges button[aria-pressed=true]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
.ex-ranges button:focus-visible,#builder :focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.ex-charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(22rem,1fr));gap:.8rem}
@media (max-width:30rem){.ex-charts{grid-template-columns:minmax(0,1fr)}}
.ex-type h3{margin:.8rem 0 .3rem}
#builder label{display:block;margin:.35rem 0 .1rem;font-weight:600}
#builder select,#builder input{font:inherit;padding:.2rem;max-width:100%}
#builder .ex-params{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.2rem .8rem}
#builder pre{white-space:pre-wrap;word-break:break-all;margin:.2rem 0 .6rem}
#builder button{font:inherit;padding:.3rem .9rem;margin:.4rem 0}
#preview{max-height:22rem}
.ex-out h4{margin:.5rem 0 .1rem;font-size:.9rem}
.ex-picker{columns:4 11rem;list-style:none;padding:0}
</style>`;

/** `/explore/{city}`: the page skeleton, the model as JSON for the script, and the bundle's hashed files. */
export async function explorerHtml(ctx: ServiceContext, raw: string, assets: WebEntry): Promise<{ html: string; slug: string }> {
  const model = await explorerModel(ctx, raw);
  // JSON inside a script element: `<` escaped, so no value ends the element.
  const json = JSON.stringify(model).replace(/</g, '\\u003c');
  const name = esc(model.city.name);
  const head = `${STYLE}<link rel="stylesheet" href="${EXPLORER_ASSETS}${esc(assets.css ?? '')}"><link rel="canonical" href="/explore/${esc(model.city.slug)}">
<script defer src="${EXPLORER_ASSETS}${esc(assets.js)}"></script>`;
  const body = `<h1>Explorer: ${name}</h1>
<p>${name} on a map, its current values, what the service recorded over time, and a request builder. Everything here comes from this
service's own API (each part names the request it makes); the state of the view is in the address, so a view can be shared.
<a href="/explore">Other cities</a> · <a href="/coverage/${esc(model.city.slug)}">coverage of ${name}</a> · <a href="/api/v1/cities/${esc(model.city.slug)}/overview">overview (JSON)</a></p>
<div class="ex-grid">
<section class="ex-section" aria-labelledby="h-map"><h2 id="h-map">Map</h2><div id="map"></div></section>
<section class="ex-section" aria-labelledby="h-values"><h2 id="h-values">Current values</h2>
<p id="values-note">Live types update from their Server-Sent Events stream, the others are fetched again when their cache window ends.</p><div id="values"></div></section>
</div>
<section class="ex-section" aria-labelledby="h-history"><h2 id="h-history">History</h2>
<div class="ex-ranges" role="group" aria-label="Time range of the charts">
<button type="button" data-range="24h" aria-pressed="false">24 h</button><button type="button" data-range="7d" aria-pressed="false">7 d</button><button type="button" data-range="30d" aria-pressed="false">30 d</button><button type="button" data-range="1y" aria-pressed="false">1 y</button>
</div>
<p id="history-note">Ranges end at the latest recorded point; 30 d and 1 y ask for hourly and daily buckets (<code>every</code>) and plot their mean.</p>
<div id="history"></div></section>
<section class="ex-section" aria-labelledby="h-builder"><h2 id="h-builder">Request builder</h2><form id="builder"></form></section>
<p id="licences"><small>Drawn with <a href="https://leafletjs.com">Leaflet</a> 1.9.4 (BSD-2-Clause, © Volodymyr Agafonkin, CloudMade) and
<a href="https://github.com/leeoniya/uPlot">uPlot</a> 1.6.32 (MIT, © Leon Sorokin), bundled and served by this service.
${model.tiles ? `Basemap: ${esc(model.tiles.attribution)}.` : 'No basemap is configured (MAP_TILES_URL): the map draws on a plain background.'} Each layer's data keeps its source's licence, named in its popup and the map's attribution.</small></p>
<script type="application/json" id="explorer-model">${json}</script>`;
  return { html: htmlPage({ title: `Stadtdaten explorer: ${model.city.name}`, body, demo: ctx.rt.config.demo, head }), slug: model.city.slug };
}

/** `/explore`: the city picker, a list of links and a form that takes any spelling the slug resolver accepts. */
export function explorerPickerHtml(ctx: Pick<ServiceContext, 'rt'>): string {
  const links = CITIES.map((c) => `<li><a href="/explore/${esc(c.slug)}">${esc(c.name)}</a></li>`).join('');
  const options = CITIES.map((c) => `<option value="${esc(c.name)}">`).join('');
  const body = `<h1>Explorer</h1>
<p>Pick a city: its map (boundary and every data type with coordinates as a layer), current values, recorded history and a request builder.</p>
<form method="get" action="/explore"><label for="city">City</label> <input id="city" name="city" list="cities" autocomplete="off" required>
<datalist id="cities">${options}</datalist> <button>Explore</button></form>
<ul class="ex-picker">${links}</ul>`;
  return htmlPage({ title: 'Stadtdaten explorer', body, demo: ctx.rt.config.demo, head: STYLE });
}
