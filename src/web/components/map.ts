/**
 * The map component: a city boundary and any number of GeoJSON layers drawn by Leaflet on one
 * canvas (no basemap unless a tile URL is given: then nothing leaves the origin), with a legend of
 * native checkboxes (keyboard and screen readers for free) that shows each layer's item count, and
 * layers that cannot answer (no_data, not_covered, disabled, error) greyed with their reason rather
 * than hidden. A popup shows a feature's fields, its answer's source_status and attribution.
 *
 * Used by the explorer page and the MCP Apps UIs; it knows nothing of either.
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './components.css';
import { attributionText, el, shortText, type Feature, type FeatureCollection, type Geometry } from './types.ts';

/** What a layer is doing: `idle` not asked yet, `loading`, `ok` (drawn), or a state that greys it. */
export type LayerState = 'idle' | 'loading' | 'ok' | 'no_data' | 'not_covered' | 'disabled' | 'error';

export interface MapLayerSpec {
  id: string;
  label: string;
  state?: LayerState;
  /** Why a greyed layer has nothing (shown beside it). */
  reason?: string;
  /** Shown on the map (ignored until the layer has data). */
  visible?: boolean;
}

export interface MapOptions {
  /** The city boundary: a GeoJSON geometry or feature (MultiPolygon for `geo`), or null when there is none. */
  boundary?: Geometry | Feature | null;
  /** Why there is no boundary, shown in the legend. */
  boundaryReason?: string;
  layers: MapLayerSpec[];
  /** Where to look when there is nothing to fit to. */
  center?: { lat: number; lon: number; zoom?: number };
  /** A raster basemap; none (the default) draws on a plain background. */
  tiles?: { url: string; attribution: string } | null;
  /** Where the legend goes (default: after the map inside `el`). */
  legend?: HTMLElement;
  /** Called when the user switches a layer (not when code does). */
  onToggle?: (id: string, visible: boolean) => void;
  /** Called when the user pans or zooms. */
  onView?: (view: { lat: number; lon: number; zoom: number }) => void;
}

export interface MapHandle {
  map: L.Map;
  /** Draws a layer's GeoJSON answer; its meta.source_status decides whether it is drawn or greyed. */
  setData(id: string, answer: FeatureCollection): void;
  setState(id: string, state: LayerState, reason?: string): void;
  /** Draws (or, with null, explains the lack of) the city boundary after the map was made. */
  setBoundary(boundary: Geometry | Feature | null, reason?: string): void;
  setVisible(id: string, visible: boolean): void;
  /** Ids of the layers shown now. */
  visible(): string[];
  /** Item count per layer with data. */
  counts(): Record<string, number>;
  /** Fits the view to the boundary, else to the visible layers. */
  fit(): void;
  setView(view: { lat: number; lon: number; zoom: number }): void;
  destroy(): void;
}

/** Distinct colours, each at least 3:1 against the light map background (WCAG non-text contrast). */
const PALETTE = ['#c2410c', '#1d4ed8', '#15803d', '#a21caf', '#b91c1c', '#0e7490', '#7c3aed', '#a16207', '#be185d', '#4d7c0f', '#1e40af', '#9a3412'];

const GREY: readonly LayerState[] = ['no_data', 'not_covered', 'disabled', 'error'];

interface LayerEntry {
  spec: MapLayerSpec;
  colour: string;
  state: LayerState;
  reason: string;
  count: number | null;
  total: number | null;
  group: L.GeoJSON | null;
  row: HTMLLIElement;
  box: HTMLInputElement;
  status: HTMLSpanElement;
}

function popupOf(feature: Feature, answer: FeatureCollection, label: string): HTMLElement {
  const props = feature.properties ?? {};
  const rows = Object.entries(props)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .slice(0, 24)
    .map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, shortText(v))));
  const status = answer.meta?.source_status ?? 'unknown';
  const attribution = answer.attribution;
  const link = attribution?.license_url
    ? el('a', { href: attribution.license_url, target: '_blank', rel: 'noopener' }, attribution.license ?? 'licence')
    : null;
  return el(
    'div',
    { class: 'sd-popup' },
    el('strong', {}, String(props.name ?? label)),
    el('table', {}, el('tbody', {}, ...rows)),
    el('p', {}, 'source_status: ', el('code', {}, status)),
    el('p', { class: 'sd-attr' }, attribution ? (attribution.text ?? attribution.source ?? '') : '', link ? ' · ' : '', link),
  );
}

export function renderMap(root: HTMLElement, opts: MapOptions): MapHandle {
  root.classList.add('sd-map-wrap');
  const mapEl = el('div', { class: 'sd-map', role: 'region', 'aria-label': 'Map of the city with the switched-on layers' });
  root.append(mapEl);
  const legendHost = opts.legend ?? root;
  // One canvas for every vector: fast with thousands of points, and a test can read its pixels.
  const renderer = L.canvas({ padding: 0.3 });
  const map = L.map(mapEl, { preferCanvas: true, renderer, zoomControl: true, attributionControl: true });
  map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener">Leaflet</a>');
  if (opts.tiles?.url) L.tileLayer(opts.tiles.url, { attribution: opts.tiles.attribution, maxZoom: 19 }).addTo(map);
  const c = opts.center ?? { lat: 51.16, lon: 10.45, zoom: 6 };
  map.setView([c.lat, c.lon], c.zoom ?? 11);

  let boundary: L.GeoJSON | null = null;
  const drawBoundary = (b: Geometry | Feature | null | undefined) => {
    boundary?.remove();
    boundary = b
      ? L.geoJSON(b as never, { style: { color: '#1f2937', weight: 2, fill: true, fillColor: '#1f2937', fillOpacity: 0.04 }, interactive: false }).addTo(map)
      : null;
  };
  drawBoundary(opts.boundary);

  const list = el('ul', { class: 'sd-legend-list' });
  const boundaryLine = el('p', { class: 'sd-boundary' });
  const paintBoundary = (reason?: string) => {
    boundaryLine.dataset.state = boundary ? 'ok' : 'no_data';
    boundaryLine.replaceChildren(
      el('span', { class: 'sd-swatch sd-swatch-line', 'aria-hidden': 'true' }),
      boundary ? 'City boundary' : `City boundary: not available${reason ? ` (${reason})` : ''}`,
    );
  };
  paintBoundary(opts.boundaryReason);
  const legend = el('fieldset', { class: 'sd-legend' }, el('legend', {}, 'Layers'), boundaryLine, list);
  legendHost.append(legend);

  const entries = new Map<string, LayerEntry>();
  opts.layers.forEach((spec, i) => {
    const colour = PALETTE[i % PALETTE.length]!;
    const id = `sd-layer-${spec.id}`;
    const box = el('input', { type: 'checkbox', id, 'data-layer': spec.id });
    const status = el('span', { class: 'sd-status' });
    const row = el(
      'li',
      { 'data-layer': spec.id },
      box,
      el('label', { for: id }, el('span', { class: 'sd-swatch', style: `background:${colour}`, 'aria-hidden': 'true' }), spec.label),
      ' ',
      status,
    );
    list.append(row);
    const entry: LayerEntry = { spec, colour, state: spec.state ?? 'idle', reason: spec.reason ?? '', count: null, total: null, group: null, row, box, status };
    entries.set(spec.id, entry);
    box.checked = spec.visible === true;
    box.addEventListener('change', () => {
      show(entry, box.checked);
      opts.onToggle?.(spec.id, box.checked);
    });
    paint(entry);
  });

  function paint(e: LayerEntry) {
    const grey = GREY.includes(e.state);
    // Layers with nothing to draw move below the others: listed with their reason, never hidden.
    if (grey && e.row.parentElement === list) list.append(e.row);
    e.row.dataset.state = e.state;
    e.row.classList.toggle('sd-grey', grey);
    e.box.disabled = grey;
    if (grey) e.box.checked = false;
    let text: string;
    if (e.state === 'loading') text = 'loading…';
    else if (e.state === 'idle') text = 'not loaded';
    else if (e.state === 'ok') text = e.total !== null && e.count !== null && e.total > e.count ? `${e.count} of ${e.total}` : String(e.count ?? 0);
    else text = `${e.state.replace('_', ' ')}${e.reason ? `: ${e.reason}` : ''}`;
    e.status.textContent = text;
    if (e.count !== null) e.row.dataset.count = String(e.count);
    else delete e.row.dataset.count;
  }

  function show(e: LayerEntry, on: boolean) {
    e.box.checked = on && !GREY.includes(e.state);
    if (!e.group) return;
    if (e.box.checked) e.group.addTo(map);
    else e.group.remove();
  }

  const handle: MapHandle = {
    map,
    setData(id, answer) {
      const e = entries.get(id);
      if (!e) return;
      e.group?.remove();
      const status = answer.meta?.source_status ?? 'ok';
      const features = Array.isArray(answer.features) ? answer.features : [];
      e.count = features.length;
      e.total = answer.meta?.pagination?.total ?? null;
      if (status !== 'ok' && features.length === 0) {
        e.group = null;
        e.state = (GREY.includes(status as LayerState) ? status : 'no_data') as LayerState;
        e.reason = String(answer.meta?.reason ?? answer.meta?.note ?? '');
        paint(e);
        return;
      }
      e.state = 'ok';
      e.reason = '';
      e.group = L.geoJSON(answer as never, {
        // Leaflet shows the attribution of the layers on the map only.
        attribution: attributionText(answer.attribution),
        pointToLayer: (_f, latlng) => L.circleMarker(latlng, { renderer, radius: 5, color: '#fff', weight: 1, fillColor: e.colour, fillOpacity: 0.9 }),
        // Lines and areas in the layer's colour; points keep their marker style (pointToLayer).
        style: (f) =>
          f?.geometry?.type === 'Point' || f?.geometry?.type === 'MultiPoint' ? {} : { color: e.colour, weight: 3, fillColor: e.colour, fillOpacity: 0.15 },
        onEachFeature: (f, layer) => layer.bindPopup(() => popupOf(f as Feature, answer, e.spec.label), { maxWidth: 320 }),
      });
      paint(e);
      show(e, e.box.checked);
    },
    setState(id, state, reason) {
      const e = entries.get(id);
      if (!e) return;
      e.state = state;
      e.reason = reason ?? '';
      if (GREY.includes(state)) {
        e.group?.remove();
        e.group = null;
        e.count = null;
      }
      paint(e);
    },
    setBoundary(b, reason) {
      drawBoundary(b);
      paintBoundary(reason);
    },
    setVisible(id, visible) {
      const e = entries.get(id);
      if (e) {
        e.box.checked = visible;
        show(e, visible);
      }
    },
    visible: () => [...entries.values()].filter((e) => e.box.checked).map((e) => e.spec.id),
    counts: () => Object.fromEntries([...entries.values()].filter((e) => e.count !== null).map((e) => [e.spec.id, e.count!])),
    fit() {
      const target: L.FeatureGroup = boundary ?? L.featureGroup([...entries.values()].filter((e) => e.group && e.box.checked).map((e) => e.group!));
      const bounds = target.getBounds();
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [12, 12], maxZoom: 15 });
    },
    setView(v) {
      map.setView([v.lat, v.lon], v.zoom);
    },
    destroy() {
      map.remove();
      legend.remove();
      mapEl.remove();
    },
  };
  map.on('moveend', () => {
    const ctr = map.getCenter();
    opts.onView?.({ lat: ctr.lat, lon: ctr.lng, zoom: map.getZoom() });
  });
  return handle;
}
