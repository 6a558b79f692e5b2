/**
 * The explorer page of one city (/explore/{city}): wires the components to the API. The server
 * rendered the skeleton and the model (services/explorer.ts) from the catalog and the cache; every
 * request made here is one of the API's ordinary ones, at most a few at a time. The view's state
 * (layers, map view, history range, the request builder) lives in the address.
 */
import {
  renderChart,
  renderMap,
  renderValues,
  seriesFromHistory,
  type ChartHandle,
  type Envelope,
  type FeatureCollection,
  type HistoryAnswer,
} from './components/index.ts';
import { el } from './components/types.ts';
import type { ExplorerModel } from './wire.ts';

const model = JSON.parse(document.getElementById('explorer-model')!.textContent!) as ExplorerModel;
const state = new URLSearchParams(location.search);

/** Writes the view's state into the address (no reload, no history entry per change). */
function save() {
  const qs = state.toString();
  history.replaceState(null, '', `/explore/${model.city.slug}${qs ? `?${qs}` : ''}`);
}
save(); // a tolerant slug (Köln, cologne) becomes the canonical address

// ---- requests: the API's own, at most three at a time (streams hold connections of their own) ----
const MAX_FETCHES = 3;
let running = 0;
const waiting: (() => void)[] = [];
async function api(path: string): Promise<{ ok: boolean; status: number; body: unknown }> {
  if (running >= MAX_FETCHES) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    const res = await fetch(path, { headers: { accept: 'application/json, application/geo+json;q=0.9' } });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { ok: res.ok, status: res.status, body };
  } catch {
    return { ok: false, status: 0, body: { detail: 'the request failed (network)' } };
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function problemText(body: unknown): string {
  const p = (body ?? {}) as { code?: string; detail?: string };
  return [p.code, p.detail].filter(Boolean).join(': ') || 'the request failed';
}

// ---- map ----
const wanted = state.get('layers');
const wantedSet = new Set(wanted ? wanted.split(',').filter(Boolean) : []);
const viewParam = state.get('view')?.split('/').map(Number);
const fromUrlView = viewParam && viewParam.length === 3 && viewParam.every(Number.isFinite);
const map = renderMap(document.getElementById('map')!, {
  layers: model.layers.map((l) => ({ id: l.type, label: l.label, state: l.state, reason: l.reason, visible: wantedSet.has(l.type) })),
  center: { lat: model.city.lat, lon: model.city.lon, zoom: 11 },
  tiles: model.tiles,
  onToggle: () => saveLayers(),
  onView: (v) => {
    state.set('view', `${v.zoom}/${v.lat.toFixed(4)}/${v.lon.toFixed(4)}`);
    save();
  },
});
if (fromUrlView) map.setView({ zoom: viewParam[0]!, lat: viewParam[1]!, lon: viewParam[2]! });

function saveLayers() {
  state.set('layers', map.visible().join(','));
  save();
}

let fitted = Boolean(fromUrlView);
async function loadBoundary() {
  if (model.boundary.state !== 'idle') {
    map.setBoundary(null, model.boundary.reason ?? model.boundary.state.replace('_', ' '));
    return;
  }
  const r = await api(model.boundary.path);
  const env = r.body as Envelope;
  const geometry = r.ok ? (env.data as { geometry?: { type: string; coordinates: unknown } } | null)?.geometry : null;
  if (geometry) {
    map.setBoundary(geometry);
    if (!fitted) {
      map.fit();
      fitted = true;
    }
  } else map.setBoundary(null, r.ok ? String(env.meta?.reason ?? env.meta?.note ?? env.meta?.source_status ?? 'no data') : problemText(r.body));
}

async function loadLayer(type: string, path: string) {
  map.setState(type, 'loading');
  const r = await api(path);
  if (!r.ok) {
    map.setState(type, 'error', problemText(r.body));
    return;
  }
  const fc = r.body as FeatureCollection;
  map.setData(type, fc);
  // Without a saved view every layer with items is shown; a shared address shows what it names.
  if (!wanted && fc.features?.length) map.setVisible(type, true);
}

async function loadLayers() {
  const pending = model.layers.filter((l) => l.state === 'idle');
  // What the address names first, then what is cached (a cache hit), then the rest.
  pending.sort((a, b) => Number(wantedSet.has(b.type)) - Number(wantedSet.has(a.type)) || Number(b.cached) - Number(a.cached));
  await Promise.all(pending.map((l) => loadLayer(l.type, l.path)));
  if (!fitted) {
    map.fit();
    fitted = true;
  }
}

// ---- current values ----
const MAX_STREAMS = 3;
const values = renderValues(
  document.getElementById('values')!,
  model.values.map((v) => ({ type: v.type, label: v.label, fields: v.fields, list: v.list, path: v.path, mode: v.mode })),
);
if (model.values.length === 0) document.getElementById('values-note')!.textContent = 'No current values for this city on this server.';

function poll(v: ExplorerModel['values'][number]) {
  const once = async () => {
    const r = await api(v.path);
    if (r.ok) values.update(v.type, r.body as Envelope);
    else values.setState(v.type, 'error', problemText(r.body));
  };
  void once();
  setInterval(() => void once(), v.refresh * 1000);
}

function stream(v: ExplorerModel['values'][number]) {
  const source = new EventSource(v.path);
  const show = (e: MessageEvent<string>) => values.update(v.type, JSON.parse(e.data) as Envelope);
  source.onmessage = show;
  source.addEventListener('reset', show as EventListener);
  // A refused stream (too many, or a problem before the first event) falls back to fetching.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) poll(v);
  };
}

function startValues() {
  const live = model.values.filter((v) => v.mode === 'live');
  // Browsers keep six connections per origin: three streams, the most useful first (those with a cached answer).
  live.sort((a, b) => Number(b.ok ?? false) - Number(a.ok ?? false));
  const streamed = new Set(live.slice(0, MAX_STREAMS).map((v) => v.type));
  for (const v of model.values) {
    if (streamed.has(v.type)) stream(v);
    else poll(v);
  }
}

// ---- history ----
const RANGES: Record<string, { ms: number; every?: string }> = {
  '24h': { ms: 86_400_000 },
  '7d': { ms: 7 * 86_400_000 },
  '30d': { ms: 30 * 86_400_000, every: '1h' },
  '1y': { ms: 365 * 86_400_000, every: '1d' },
};
const historyRoot = document.getElementById('history')!;
const charts = new Map<string, { section: HTMLElement; charts: Map<string, ChartHandle>; last: number | null }>();

function rangeQuery(range: string | null, last: number | null): string {
  const r = range ? RANGES[range] : undefined;
  if (!r) return '';
  const to = (last ?? Date.now()) + 1000;
  const q = new URLSearchParams({ from: new Date(to - r.ms).toISOString(), to: new Date(to).toISOString() });
  if (r.every) q.set('every', r.every);
  return `?${q.toString()}`;
}

function latest(answer: HistoryAnswer): number | null {
  const lasts = (answer.meta.series ?? []).map((s) => (s.last ? Date.parse(s.last) : NaN)).filter(Number.isFinite);
  return lasts.length ? Math.max(...lasts) : null;
}

async function loadHistory(h: ExplorerModel['history'][number], range: string | null) {
  let entry = charts.get(h.type);
  if (!entry) {
    const section = el('section', { class: 'ex-type', 'data-type': h.type, 'aria-label': `History of ${h.label}` }, el('h3', {}, h.label));
    historyRoot.append(section);
    entry = { section, charts: new Map(), last: null };
    charts.set(h.type, entry);
  }
  if (range && entry.last === null) {
    // The latest point anchors a range: the first ask (no range) says where the series end.
    const first = await api(h.path);
    if (first.ok) entry.last = latest(first.body as HistoryAnswer);
  }
  const url = h.path + rangeQuery(range, entry.last);
  entry.section.dataset.url = url;
  entry.section.dataset.loading = 'true';
  const r = await api(url);
  delete entry.section.dataset.loading;
  const note = entry.section.querySelector('.ex-note') ?? entry.section.appendChild(el('p', { class: 'ex-note' }));
  if (!r.ok) {
    note.textContent = problemText(r.body);
    return;
  }
  const answer = r.body as HistoryAnswer;
  entry.last ??= latest(answer);
  note.textContent =
    answer.meta.source_status === 'ok' ? String(answer.meta.note ?? '') : String(answer.meta.note ?? answer.meta.reason ?? 'nothing recorded yet');
  const csv = `${url}${url.includes('?') ? '&' : '?'}format=csv`;
  const wrap = entry.section.querySelector('.ex-charts') ?? entry.section.appendChild(el('div', { class: 'ex-charts' }));
  const span = `${answer.meta.from ?? ''} – ${answer.meta.to ?? ''}${answer.meta.every ? `, every ${answer.meta.every} (mean)` : ''}`;
  // A field without points in this range gets no chart, only the note above (and its CSV link).
  for (const s of seriesFromHistory(answer).filter((x) => x.points.length > 0 || entry.charts.has(x.field))) {
    const existing = entry.charts.get(s.field);
    if (existing) existing.update(s, span);
    else entry.charts.set(s.field, renderChart(wrap as HTMLElement, s, { title: `${h.label}: ${s.field}${s.unit ? ` (${s.unit})` : ''}`, csv, caption: span }));
    const link = wrap.querySelector(`figure[data-field="${CSS.escape(s.field)}"] a[download]`);
    link?.setAttribute('href', csv);
  }
}

function setRange(range: string | null) {
  for (const b of document.querySelectorAll<HTMLButtonElement>('.ex-ranges button')) b.setAttribute('aria-pressed', String(b.dataset.range === range));
  if (range) state.set('range', range);
  else state.delete('range');
  save();
  return Promise.all(model.history.map((h) => loadHistory(h, range)));
}

for (const b of document.querySelectorAll<HTMLButtonElement>('.ex-ranges button')) b.addEventListener('click', () => void setRange(b.dataset.range ?? null));
if (model.history.length === 0) document.getElementById('history-note')!.textContent = 'Nothing is recorded over time for this city on this server.';

// ---- request builder ----
const form = document.getElementById('builder') as HTMLFormElement;
function buildForm() {
  const entries = model.builder;
  if (!entries.length) return;
  const chosen = entries.find((b) => b.type === state.get('b.type')) ?? entries.find((b) => b.type === model.values[0]?.type) ?? entries[0]!;
  const typeSel = el('select', { id: 'b-type', name: 'type' }, ...entries.map((b) => el('option', { value: b.type }, `${b.label} (${b.type})`)));
  typeSel.value = chosen.type;
  const paramsBox = el('div', { class: 'ex-params' });
  const formatSel = el('select', { id: 'b-format' });
  const out = el('div', { class: 'ex-out' });
  const preview = el('pre', { id: 'preview', tabindex: '0', role: 'region', 'aria-label': 'Answer preview' });
  const send = el('button', { type: 'submit' }, 'Send request and preview the answer');
  form.append(el('label', { for: 'b-type' }, 'Data type'), typeSel, paramsBox, el('label', { for: 'b-format' }, 'Format'), formatSel, out, send, preview);

  const current = () => entries.find((b) => b.type === typeSel.value)!;
  const renderParams = () => {
    const b = current();
    paramsBox.replaceChildren();
    for (const p of b.params) {
      const id = `b-p-${p.name}`;
      const saved = state.get(`b.${p.name}`) ?? (p.required ? String(p.example ?? p.enum?.[0] ?? '') : '');
      const input = p.enum
        ? el('select', { id, 'data-param': p.name }, el('option', { value: '' }, '(default)'), ...p.enum.map((v) => el('option', { value: v }, v)))
        : el('input', {
            id,
            'data-param': p.name,
            type: p.type === 'integer' ? 'number' : 'text',
            placeholder: p.default !== undefined ? String(p.default) : '',
          });
      input.value = saved;
      paramsBox.append(
        el('div', {}, el('label', { for: id }, `${p.name}${p.required ? ' (required)' : ''}`), input, el('small', { class: 'sd-sr-only' }, p.description)),
      );
    }
    formatSel.replaceChildren(...b.formats.map((f) => el('option', { value: f }, f)));
    formatSel.value = b.formats.includes(state.get('b.format') ?? '') ? state.get('b.format')! : 'json';
  };

  const request = () => {
    const b = current();
    const values: Record<string, string> = {};
    for (const input of paramsBox.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-param]'))
      if (input.value !== '') values[input.dataset.param!] = input.value;
    let path = b.template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(k === 'slug' || k === 'city' ? model.city.slug : (values[k] ?? `{${k}}`)));
    const query = new URLSearchParams(Object.entries(values).filter(([k]) => b.params.find((p) => p.name === k)?.in !== 'path'));
    if (formatSel.value !== 'json') query.set('format', formatSel.value);
    if (query.size) path += `?${query.toString()}`;
    const args: Record<string, unknown> = { city: model.city.slug, data_type: b.type };
    for (const [k, v] of Object.entries(values)) args[k] = b.params.find((p) => p.name === k)?.type === 'integer' ? Number(v) : v;
    return { b, path, values, args };
  };

  const show = () => {
    const { b, path, values: vals, args } = request();
    const url = location.origin + path;
    const csv = formatSel.value === 'csv';
    const base = location.origin + path.split('?')[0];
    const pyParams = Object.entries({ ...Object.fromEntries(Object.entries(vals).filter(([k]) => b.params.find((p) => p.name === k)?.in !== 'path')) })
      .concat(formatSel.value !== 'json' ? [['format', formatSel.value]] : [])
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(', ');
    const snippets: [string, string][] = [
      ['REST URL', url],
      ['curl', `curl -s '${url.replace(/'/g, "'\\''")}'`],
      ['JavaScript fetch', `const res = await fetch(${JSON.stringify(url)});\nconst answer = await res.${csv ? 'text' : 'json'}();`],
      [
        'Python requests',
        `import requests\n\nr = requests.get(${JSON.stringify(base)}${pyParams ? `, params={${pyParams}}` : ''}, timeout=30)\nprint(r.${csv ? 'text' : 'json()'})`,
      ],
      ['MCP tool call', JSON.stringify({ method: 'tools/call', params: { name: b.tool, arguments: args } }, null, 2)],
    ];
    out.replaceChildren(...snippets.flatMap(([label, code]) => [el('h4', {}, label), el('pre', { 'data-snippet': label }, code)]));
    state.set('b.type', b.type);
    state.set('b.format', formatSel.value);
    for (const key of [...state.keys()]) if (key.startsWith('b.') && key !== 'b.type' && key !== 'b.format') state.delete(key);
    for (const [k, v] of Object.entries(vals)) state.set(`b.${k}`, v);
    save();
  };

  typeSel.addEventListener('change', () => {
    for (const key of [...state.keys()]) if (key.startsWith('b.') && key !== 'b.type') state.delete(key);
    renderParams();
    show();
  });
  paramsBox.addEventListener('input', show);
  formatSel.addEventListener('change', show);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const { path } = request();
    preview.textContent = 'loading…';
    void fetch(path).then(
      async (res) => {
        const text = await res.text();
        preview.textContent = `HTTP ${res.status} ${res.headers.get('content-type') ?? ''}\n\n${text.length > 6000 ? `${text.slice(0, 6000)}\n…` : text}`;
      },
      () => (preview.textContent = 'the request failed (network)'),
    );
  });
  renderParams();
  show();
}

buildForm();
void loadBoundary();
void loadLayers();
startValues();
void setRange(state.get('range'));
