import { renderChart, renderMap, renderValues, type ChartSeries, type MapLayer } from './components.ts';
import type { ViewFacts as Facts } from '../../core/view-facts.ts';
import { featuresOf, historySeries, rowsOf } from './shape.ts';

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

type Env = { data?: unknown; meta?: Record<string, unknown>; attribution?: unknown };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** The credit line of an answer: every source's text and licence. */
function credit(attribution: unknown): HTMLElement | null {
  const list = (Array.isArray(attribution) ? attribution : attribution ? [attribution] : []) as Record<string, unknown>[];
  const names = list.map((a) => [str(a?.text) ?? str(a?.source), str(a?.license)].filter(Boolean).join(', ')).filter(Boolean);
  return names.length ? el('p', { className: 'credit' }, `Source: ${names.join('; ')}`) : null;
}

/** A button that asks the server again through the host and shows the answer in `into`. */
function callButton(ctx: ViewContext, label: string, name: string, args: Record<string, unknown>, then: (r: CallToolResult) => void): HTMLButtonElement {
  const b = el('button', { type: 'button', textContent: label });
  b.addEventListener('click', () => {
    b.disabled = true;
    ctx.call(name, args).then(
      (r) => then(r),
      () => {
        b.disabled = false;
        b.textContent = `${label} (failed; try again)`;
      },
    );
  });
  return b;
}

export function showProblem(_ctx: ViewContext, into: HTMLElement, result: CallToolResult) {
  const p = (result.structuredContent ?? {}) as Record<string, unknown>;
  const text = result.content?.find((c) => c.type === 'text')?.text;
  into.replaceChildren(
    el(
      'section',
      { className: 'problem' },
      el('h1', { textContent: str(p.title) ?? 'No answer' }),
      el('p', { textContent: str(p.detail) ?? text ?? '' }),
      ...(str(p.hint) ? [el('p', { className: 'hint', textContent: `Hint: ${str(p.hint)}` })] : []),
    ),
  );
}

function statusLine(meta: Record<string, unknown>): string {
  const status = str(meta.source_status) ?? 'ok';
  const reason = str(meta.disabled_reason) ?? str(meta.note);
  return `source_status ${status}${reason ? `: ${reason}` : ''}`;
}

/** A data answer: on the map when its type has positions, else its values. */
export function showMapAnswer(ctx: ViewContext, into: HTMLElement, env: Env) {
  const meta = env.meta ?? {};
  const type = str(meta.type) ?? '';
  const facts = ctx.facts.map[type];
  const head = el(
    'header',
    {},
    el('h1', { textContent: `${facts?.label ?? type}${str(meta.city) ? ` in ${str(meta.city)}` : ''}` }),
    el('p', { className: 'status', textContent: statusLine(meta) }),
  );
  const body = el('div', { className: 'body' });
  into.replaceChildren(head, body);
  if (facts) {
    const rows = rowsOf(facts, env.data);
    const layer: MapLayer = { name: facts.label, type, features: featuresOf(facts, rows), status: str(meta.source_status) ?? 'ok' };
    renderMap(body, { layers: [layer] });
    const page = meta.pagination as { applied?: boolean; returned?: number; total?: number } | undefined;
    const tool = ctx.tool();
    if (facts.pages && page?.applied && typeof page.total === 'number' && (page.returned ?? 0) < page.total && tool) {
      into.append(
        callButton(ctx, `Show all ${page.total}`, tool, { ...ctx.args(), data_type: type, page: undefined, offset: undefined, limit: 'all' }, (r) =>
          r.isError ? showProblem(ctx, into, r) : showMapAnswer(ctx, into, r.structuredContent as Env),
        ),
      );
    }
  } else {
    renderValues(body, env.data);
  }
  const c = credit(env.attribution);
  if (c) into.append(c);
}

/** History: one chart per field, range buttons that ask the history tool again. */
export function showHistory(ctx: ViewContext, env: Env) {
  const meta = env.meta ?? {};
  const series: ChartSeries[] = historySeries(env.data, meta);
  const root = ctx.root;
  const type = str(meta.type) ?? str(ctx.args().type) ?? '';
  const city = str(meta.city) ?? str(ctx.args().city) ?? '';
  const ranges = el('nav', { className: 'ranges', ariaLabel: 'Range' });
  const charts = el('div', { className: 'charts' });
  root.replaceChildren(
    el('header', {}, el('h1', { textContent: `${type} in ${city}: history` }), el('p', { className: 'status', textContent: statusLine(meta) })),
    ranges,
    charts,
  );
  const DAY = 86_400_000;
  for (const [label, days, every] of [
    ['24 h', 1, null],
    ['7 d', 7, null],
    ['30 d', 30, '1h'],
    ['1 y', 365, '1d'],
  ] as const) {
    const to = new Date();
    const args: Record<string, unknown> = { city, type, from: new Date(to.getTime() - days * DAY).toISOString(), ...(every ? { every } : {}) };
    ranges.append(callButton(ctx, label, 'history', args, (r) => (r.isError ? showProblem(ctx, charts, r) : showHistory(ctx, r.structuredContent as Env))));
  }
  if (!series.length) charts.append(el('p', { className: 'status', textContent: 'No recorded points in this range.' }));
  for (const s of series) renderChart(charts, s);
}

/** The overview: the city's highlights as values, its data types; one with positions opens on a map. */
export function showOverview(ctx: ViewContext, env: Env) {
  const data = (env.data ?? {}) as {
    city?: { slug?: string; name?: string };
    data_types?: { type: string; label_en?: string; tool: string; available: boolean; state?: string; note?: string }[];
    highlights?: Record<string, { type: string | null; source_status: string; data: unknown }>;
    summary?: { headline?: string };
  };
  const root = ctx.root;
  const shown = el('section', { className: 'shown', ariaLive: 'polite' });
  const values = el('section', { className: 'highlights' });
  for (const [slot, h] of Object.entries(data.highlights ?? {})) {
    const box = el('div', { className: 'highlight' }, el('h2', { textContent: `${slot} (${h.source_status})` }));
    renderValues(box, h.data);
    values.append(box);
  }
  const list = el('ul', { className: 'types' });
  for (const d of data.data_types ?? []) {
    const facts = ctx.facts.map[d.type];
    const item = el('li', { className: d.available ? 'on' : 'off' }, `${d.label_en ?? d.type}${d.available ? '' : ` (${d.state ?? 'not available'})`}`);
    if (d.available && facts && data.city?.slug) {
      item.append(
        ' ',
        callButton(ctx, 'map', d.tool, { city: data.city.slug, data_type: d.type, ...(facts.pages ? { limit: 'all' } : {}) }, (r) =>
          r.isError ? showProblem(ctx, shown, r) : showMapAnswer(ctx, shown, r.structuredContent as Env),
        ),
      );
    }
    item.dataset.type = d.type;
    list.append(item);
  }
  root.replaceChildren(
    el('header', {}, el('h1', { textContent: data.city?.name ?? 'City' }), el('p', { className: 'status', textContent: data.summary?.headline ?? '' })),
    values,
    shown,
    list,
  );
}
