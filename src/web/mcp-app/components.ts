/**
 * Map, chart and values for the MCP Apps views. Placeholder drawing (plain SVG) until the
 * explorer's shared components replace it; the data attributes are what the browser test reads.
 */
export interface Feature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
}

export interface MapLayer {
  name: string;
  type: string;
  features: Feature[];
  status: string;
}

export interface ChartSeries {
  label: string;
  unit: string | null;
  points: [number, number | null][];
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function lonLats(g: unknown, out: [number, number][]) {
  if (Array.isArray(g) && typeof g[0] === 'number') out.push([g[0], g[1] as number]);
  else if (Array.isArray(g)) for (const x of g) lonLats(x, out);
}

export function renderMap(into: HTMLElement, { layers }: { layers: MapLayer[] }) {
  const all: [number, number][] = [];
  for (const l of layers) for (const f of l.features) if (f.geometry) lonLats(f.geometry.coordinates, all);
  const [w, h] = [600, 360];
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const sx = (x: number) => 10 + ((x - x0) / (x1 - x0 || 1)) * (w - 20);
  const sy = (y: number) => h - 10 - ((y - y0) / (y1 - y0 || 1)) * (h - 20);
  const map = svg('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', class: 'map' });
  const legend = document.createElement('ul');
  legend.className = 'legend';
  let drawn = 0;
  for (const l of layers) {
    for (const f of l.features) {
      if (!f.geometry) continue;
      const pts: [number, number][] = [];
      lonLats(f.geometry.coordinates, pts);
      if (f.geometry.type === 'Point') map.append(svg('circle', { cx: sx(pts[0]![0]), cy: sy(pts[0]![1]), r: 4, class: 'feature' }));
      else map.append(svg('polyline', { points: pts.map(([x, y]) => `${sx(x)},${sy(y)}`).join(' '), class: 'feature', fill: 'none' }));
      drawn++;
    }
    const li = document.createElement('li');
    li.textContent = `${l.name}: ${l.features.length} items`;
    li.dataset.count = String(l.features.length);
    legend.append(li);
  }
  map.setAttribute('aria-label', `Map with ${drawn} items`);
  const box = document.createElement('figure');
  box.className = 'map-box';
  box.dataset.features = String(layers.reduce((n, l) => n + l.features.length, 0));
  box.dataset.drawn = String(drawn);
  box.append(map, legend);
  into.append(box);
}

export function renderChart(into: HTMLElement, s: ChartSeries) {
  const pts = s.points.filter((p): p is [number, number] => p[1] !== null);
  const [w, h] = [600, 200];
  const ts = pts.map((p) => p[0]);
  const vs = pts.map((p) => p[1]);
  const [t0, t1, v0, v1] = [Math.min(...ts), Math.max(...ts), Math.min(...vs), Math.max(...vs)];
  const fig = document.createElement('figure');
  fig.className = 'chart';
  fig.dataset.points = String(s.points.length);
  fig.dataset.field = s.label;
  const cap = document.createElement('figcaption');
  cap.textContent = `${s.label}${s.unit ? ` (${s.unit})` : ''}: ${s.points.length} points`;
  const chart = svg('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': cap.textContent });
  chart.append(
    svg('polyline', {
      fill: 'none',
      class: 'line',
      points: pts.map(([t, v]) => `${10 + ((t - t0) / (t1 - t0 || 1)) * (w - 20)},${h - 10 - ((v - v0) / (v1 - v0 || 1)) * (h - 20)}`).join(' '),
    }),
  );
  const table = document.createElement('table');
  table.className = 'sr-only';
  table.innerHTML = '<thead><tr><th>time</th><th></th></tr></thead>';
  table.querySelector('th:last-child')!.textContent = `${s.label}${s.unit ? ` (${s.unit})` : ''}`;
  const body = document.createElement('tbody');
  for (const [t, v] of s.points) {
    const tr = document.createElement('tr');
    tr.append(
      Object.assign(document.createElement('td'), { textContent: new Date(t).toISOString() }),
      Object.assign(document.createElement('td'), { textContent: v === null ? '' : String(v) }),
    );
    body.append(tr);
  }
  table.append(body);
  fig.append(cap, chart, table);
  into.append(fig);
}

function flat(value: unknown, prefix: string, out: [string, string][]) {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object') return void out.push([prefix, String(value)]);
  if (Array.isArray(value)) return void out.push([prefix, `${value.length} items`]);
  for (const [k, v] of Object.entries(value)) if (k !== 'raw') flat(v, prefix ? `${prefix}.${k}` : k, out);
}

export function renderValues(into: HTMLElement, data: unknown) {
  const pairs: [string, string][] = [];
  flat(data, '', pairs);
  const dl = document.createElement('dl');
  dl.className = 'values';
  dl.dataset.values = String(pairs.length);
  for (const [k, v] of pairs.slice(0, 40))
    dl.append(Object.assign(document.createElement('dt'), { textContent: k }), Object.assign(document.createElement('dd'), { textContent: v }));
  into.append(dl);
}
