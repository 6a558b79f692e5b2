import { renderChart, renderMap, renderValues, seriesFromHistory, type Envelope, type HistoryAnswer } from '../components/index.ts';
import { el } from '../components/types.ts';
import type { ViewFacts as Facts } from '../wire.ts';
import { featuresOf, rowsOf } from './shape.ts';

/**
 * The three views, drawn with the explorer's components from what a tool result carries. A
 * button that needs more (every item, another range, another data type) asks the server through
 * the host, and the answer replaces what is shown.
 */

/** A tools/call result as the view reads it. */
export interface CallToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

export interface ViewContext {
  facts: Facts;
  root: HTMLElement;
  /** tools/call through the host. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The tool whose result this view shows (from the host context), when the host says. */
  tool(): string | null;
  /** The arguments the tool was called with. */
  args(): Record<string, unknown>;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function envelopeOf(result: CallToolResult): Envelope {
  const env = (result.structuredContent ?? {}) as Partial<Envelope>;
  return { data: env.data ?? null, meta: env.meta ?? {}, attribution: env.attribution ?? null };
}

/** A button that asks the server again through the host and hands the answer on. */
function callButton(ctx: ViewContext, label: string, name: string, args: Record<string, unknown>, then: (r: CallToolResult) => void): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'sd-button' }, label);
  b.addEventListener('click', () => {
    b.disabled = true;
    b.setAttribute('aria-busy', 'true');
    ctx.call(name, args).then(
      (r) => then(r),
      () => {
        b.disabled = false;
        b.removeAttribute('aria-busy');
        b.textContent = `${label} (failed; try again)`;
      },
    );
  });
  return b;
}

/** A tool error: its detail and the hint for a corrected call. */
export function showProblem(into: HTMLElement, result: CallToolResult) {
  const p = (result.structuredContent ?? {}) as Record<string, unknown>;
  const text = result.content?.find((c) => c.type === 'text')?.text;
  into.replaceChildren(
    el(
      'section',
      { class: 'problem', role: 'alert' },
      el('h2', {}, str(p.title) ?? 'No answer'),
      el('p', {}, str(p.detail) ?? text ?? ''),
      str(p.hint) ? el('p', { class: 'hint' }, `Hint: ${str(p.hint)}`) : null,
    ),
  );
}

function statusLine(meta: Record<string, unknown>): string {
  const status = str(meta.source_status) ?? 'ok';
  const reason = str(meta.disabled_reason) ?? str(meta.reason) ?? str(meta.note);
  return `source_status ${status}${reason ? `: ${reason}` : ''}`;
}

/** A data answer: on the map when its type has positions (count in the legend), else as values. */
export function showAnswer(ctx: ViewContext, into: HTMLElement, result: CallToolResult) {
  if (result.isError) return showProblem(into, result);
  const env = envelopeOf(result);
  const type = str(env.meta.type) ?? '';
  const facts = ctx.facts.map[type];
  const label = facts?.label ?? type;
  const body = el('div', { class: 'body' });
  into.replaceChildren(
    el('header', {}, el('h1', {}, `${label}${str(env.meta.city) ? ` in ${str(env.meta.city)}` : ''}`), el('p', { class: 'status' }, statusLine(env.meta))),
    body,
  );
  if (!facts) {
    renderValues(body, [{ type, label, list: Array.isArray(env.data) }]).update(type, env);
    return;
  }
  const features = featuresOf(facts, rowsOf(facts, env.data));
  body.dataset.features = String(features.length);
  const map = renderMap(body, { layers: [{ id: type, label, visible: true }] });
  map.setData(type, { type: 'FeatureCollection', features, meta: env.meta, attribution: env.attribution });
  map.fit();
  const page = env.meta.pagination as { applied?: boolean; returned?: number; total?: number } | undefined;
  const tool = ctx.tool();
  if (facts.pages && tool && page?.applied && typeof page.total === 'number' && (page.returned ?? 0) < page.total) {
    const { page: _p, offset: _o, ...args } = ctx.args();
    into.append(
      callButton(ctx, `Show all ${page.total}`, tool, { ...args, data_type: type, limit: 'all' }, (r) => {
        map.destroy();
        showAnswer(ctx, into, r);
      }),
    );
  }
}

/** History: one chart per recorded field with its unit and points; range buttons ask the history tool again. */
export function showHistory(ctx: ViewContext, result: CallToolResult) {
  const root = ctx.root;
  if (result.isError) return showProblem(root, result);
  const answer = envelopeOf(result) as unknown as HistoryAnswer;
  const type = str(answer.meta.type) ?? str(ctx.args().type) ?? '';
  const city = str(answer.meta.city) ?? str(ctx.args().city) ?? '';
  const ranges = el('div', { class: 'sd-ranges', role: 'group', 'aria-label': 'Range' });
  const charts = el('div', { class: 'charts' });
  root.replaceChildren(el('header', {}, el('h1', {}, `${type} in ${city}: history`), el('p', { class: 'status' }, statusLine(answer.meta))), ranges, charts);
  const DAY = 86_400_000;
  // Ranges end at the latest recorded point (now, for a type recorded today; a demo's recordings
  // are older). Spans over 31 days need a bucket width (the history tool's rule).
  const lasts = (answer.meta.series ?? []).map((s) => (s.last ? Date.parse(s.last) : NaN)).filter((t) => !Number.isNaN(t));
  const end = lasts.length ? Math.min(Date.now(), Math.max(...lasts) + 1000) : Date.now();
  for (const [label, days, every] of [
    ['24 h', 1, null],
    ['7 d', 7, null],
    ['30 d', 30, '1h'],
    ['1 y', 365, '1d'],
  ] as const) {
    const span = { from: new Date(end - days * DAY).toISOString(), ...(end < Date.now() ? { to: new Date(end).toISOString() } : {}) };
    const args: Record<string, unknown> = { city, type, ...span, ...(every ? { every } : {}) };
    ranges.append(callButton(ctx, label, 'history', args, (r) => showHistory(ctx, r)));
  }
  const series = seriesFromHistory(answer);
  for (const s of series) renderChart(charts, s, { title: `${s.field}${s.unit ? ` (${s.unit})` : ''}` });
  if (!series.length) charts.append(el('p', { class: 'sd-empty' }, 'No recorded points in this range.'));
}

interface OverviewData {
  city?: { slug?: string; name?: string };
  data_types?: { type: string; label_en?: string; tool: string; available: boolean; state?: string; note?: string }[];
  highlights?: Record<string, { type: string | null; source_status: string; data: unknown }>;
  summary?: { headline?: string };
}

/** The overview: the city's highlights as values and its data types; one with positions opens on the map through the host. */
export function showOverview(ctx: ViewContext, result: CallToolResult) {
  const root = ctx.root;
  if (result.isError) return showProblem(root, result);
  const env = envelopeOf(result);
  const data = (env.data ?? {}) as OverviewData;
  const slots = Object.entries(data.highlights ?? {}).filter(([, h]) => h.type);
  const values = el('div', { class: 'highlights' });
  const shown = el('section', { class: 'shown', 'aria-live': 'polite' });
  const list = el('ul', { class: 'types' });
  root.replaceChildren(
    el('header', {}, el('h1', {}, data.city?.name ?? 'City'), el('p', { class: 'status' }, data.summary?.headline ?? '')),
    values,
    shown,
    el('h2', {}, 'Data types'),
    list,
  );
  const panel = renderValues(
    values,
    slots.map(([slot, h]) => ({ type: h.type!, label: slot[0]!.toUpperCase() + slot.slice(1) })),
  );
  for (const [, h] of slots) panel.update(h.type!, { data: h.data, meta: { source_status: h.source_status }, attribution: null });
  for (const d of data.data_types ?? []) {
    const facts = ctx.facts.map[d.type];
    const item = el(
      'li',
      { 'data-type': d.type, class: d.available ? 'on' : 'off' },
      `${d.label_en ?? d.type}${d.available ? '' : ` (${(d.state ?? 'not available').replace('_', ' ')})`}`,
    );
    if (d.available && facts && data.city?.slug) {
      const args = { city: data.city.slug, data_type: d.type, ...(facts.pages ? { limit: 'all' } : {}) };
      item.append(
        ' ',
        callButton(ctx, `Map of ${d.label_en ?? d.type}`, d.tool, args, (r) => showAnswer(ctx, shown, r)),
      );
    }
    list.append(item);
  }
}
