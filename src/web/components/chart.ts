/**
 * The chart component: one recorded series (one field of a history answer) as a uPlot line with
 * its unit on the y axis and time on the x axis, and beside it the same points as a table (for
 * screen readers always; visible on demand). `seriesFromHistory` turns a history answer, points
 * or buckets, into one series per field.
 *
 * Used by the explorer page and the MCP Apps UIs; it knows nothing of either.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './components.css';
import { el, type HistoryAnswer } from './types.ts';

export interface ChartSeries {
  field: string;
  unit: string;
  /** Time (ms since the epoch) and value; buckets give their mean. */
  points: { t: number; v: number | null }[];
}

export interface ChartOptions {
  title: string;
  /** A link to the same data as CSV. */
  csv?: string;
  /** A line under the chart (range, source, note). */
  caption?: string;
}

export interface ChartHandle {
  update(series: ChartSeries, caption?: string): void;
  destroy(): void;
}

/** One series per field of a history answer, in the answer's field order; `every` answers plot each bucket's mean. */
export function seriesFromHistory(answer: HistoryAnswer): ChartSeries[] {
  const units = new Map<string, string>();
  for (const f of answer.meta.fields ?? []) units.set(f.name, f.unit);
  for (const s of answer.meta.series ?? []) if (!units.has(s.field)) units.set(s.field, s.unit);
  const byField = new Map<string, ChartSeries>();
  for (const name of units.keys()) byField.set(name, { field: name, unit: units.get(name) ?? '', points: [] });
  for (const row of answer.data ?? []) {
    const at = row.as_of ?? row.t;
    if (!at) continue;
    let s = byField.get(row.field);
    if (!s) byField.set(row.field, (s = { field: row.field, unit: '', points: [] }));
    s.points.push({ t: Date.parse(at), v: (row.value ?? row.mean ?? null) as number | null });
  }
  for (const s of byField.values()) s.points.sort((a, b) => a.t - b.t);
  return [...byField.values()];
}

const TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' });

function tableOf(series: ChartSeries, title: string): HTMLTableElement {
  const unit = series.unit ? ` (${series.unit})` : '';
  const rows = series.points.map((p) => el('tr', {}, el('td', {}, TIME.format(p.t)), el('td', {}, p.v === null ? '–' : String(p.v))));
  return el(
    'table',
    { class: 'sd-chart-table' },
    el('caption', {}, `${title}: ${series.points.length} points`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Time (Europe/Berlin)'), el('th', { scope: 'col' }, `${series.field}${unit}`))),
    el('tbody', {}, ...rows),
  );
}

export function renderChart(root: HTMLElement, series: ChartSeries, opts: ChartOptions): ChartHandle {
  const box = el('figure', { class: 'sd-chart', 'data-field': series.field });
  const plotEl = el('div', { class: 'sd-chart-plot', 'aria-hidden': 'true' });
  const cap = el('figcaption', {});
  // Scrollable, so focusable: a keyboard reaches every row.
  const tableWrap = el('div', { class: 'sd-chart-data sd-sr-only', tabindex: '0', role: 'region', 'aria-label': `${opts.title}: data table` });
  const toggle = el('button', { type: 'button', class: 'sd-linklike', 'aria-expanded': 'false' }, 'Show table');
  toggle.addEventListener('click', () => {
    const shown = tableWrap.classList.toggle('sd-sr-only') === false;
    toggle.setAttribute('aria-expanded', String(shown));
    toggle.textContent = shown ? 'Hide table' : 'Show table';
  });
  const links = el('p', { class: 'sd-chart-links' }, toggle, opts.csv ? ' · ' : '', opts.csv ? el('a', { href: opts.csv, download: '' }, 'CSV') : null);
  box.append(el('h4', {}, opts.title), plotEl, cap, links, tableWrap);
  root.append(box);

  let plot: uPlot | null = null;
  const width = () => Math.max(240, Math.floor(plotEl.clientWidth || root.clientWidth || 320));
  const draw = (s: ChartSeries, caption?: string) => {
    box.dataset.points = String(s.points.length);
    cap.textContent = caption ?? opts.caption ?? '';
    tableWrap.replaceChildren(tableOf(s, opts.title));
    plot?.destroy();
    plot = null;
    plotEl.replaceChildren();
    if (s.points.length === 0) {
      plotEl.append(el('p', { class: 'sd-empty' }, 'No points recorded in this range.'));
      return;
    }
    const data: uPlot.AlignedData = [s.points.map((p) => p.t / 1000), s.points.map((p) => p.v)];
    plot = new uPlot(
      {
        width: width(),
        height: 200,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [
          { stroke: '#374151', grid: { stroke: '#e5e7eb' } },
          { label: s.unit || s.field, stroke: '#374151', grid: { stroke: '#e5e7eb' }, size: 56 },
        ],
        series: [{}, { label: s.field, stroke: '#1d4ed8', width: 2, points: { show: s.points.length < 60 }, spanGaps: false }],
      },
      data,
      plotEl,
    );
  };
  draw(series);
  const resize = new ResizeObserver(() => plot?.setSize({ width: width(), height: 200 }));
  resize.observe(root);
  return {
    update: draw,
    destroy() {
      resize.disconnect();
      plot?.destroy();
      box.remove();
    },
  };
}
