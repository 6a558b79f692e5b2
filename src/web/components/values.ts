/**
 * The values component: one card per current data type (weather, air, water level, parking,
 * power price, departures, …) showing its headline numbers with units, its source_status, when
 * it was measured and its attribution. `update` replaces a card's answer (an SSE event or a fresh
 * fetch), so the panel changes in place without reloading.
 *
 * Used by the explorer page and the MCP Apps UIs; it knows nothing of either.
 */
import './components.css';
import { attributionText, el, shortText, type Envelope } from './types.ts';

/** One number of a record: a dotted path into `data` (into each item for lists) and its unit. */
export interface ValueField {
  path: string;
  unit?: string;
  label?: string;
}

export interface ValueSpec {
  type: string;
  label: string;
  /** The numbers to show; none: every numeric top-level member. */
  fields?: ValueField[];
  /** `data` is a list, or the record's list member holding the items. */
  list?: boolean | string;
  /** Where the answer comes from (shown small). */
  path?: string;
  /** `live` (a stream), `polled` or `static`: shown as a badge. */
  mode?: string;
}

export interface ValuesHandle {
  update(type: string, answer: Envelope): void;
  setState(type: string, status: string, reason?: string): void;
  destroy(): void;
}

const ITEMS_SHOWN = 3;
const FIELDS_SHOWN = 6;

function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

function numericFields(record: unknown): ValueField[] {
  if (!record || typeof record !== 'object') return [];
  return Object.entries(record as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'number')
    .map(([k]) => ({ path: k }));
}

function itemsOf(data: unknown, list: ValueSpec['list']): unknown[] | null {
  if (Array.isArray(data)) return data;
  if (typeof list === 'string' && data && typeof data === 'object') {
    const inner = (data as Record<string, unknown>)[list];
    return Array.isArray(inner) ? inner : [];
  }
  return null;
}

function valueList(record: unknown, fields: ValueField[]): HTMLElement {
  const dl = el('dl', { class: 'sd-values-dl' });
  let shown = 0;
  for (const f of fields) {
    const v = at(record, f.path);
    if (v === undefined || v === null || shown >= FIELDS_SHOWN) continue;
    shown++;
    dl.append(el('dt', {}, f.label ?? f.path.replace(/_/g, ' ')), el('dd', { 'data-path': f.path }, `${shortText(v, 40)}${f.unit ? ` ${f.unit}` : ''}`));
  }
  if (!shown) dl.append(el('dt', {}, 'values'), el('dd', {}, '–'));
  return dl;
}

function nameOf(item: unknown, i: number): string {
  if (item && typeof item === 'object') {
    const o = item as Record<string, unknown>;
    for (const k of ['name', 'title', 'line', 'station', 'id']) if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
  }
  return `#${i + 1}`;
}

const TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short', timeStyle: 'short', timeZone: 'Europe/Berlin' });

function when(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : TIME.format(t);
}

export function renderValues(root: HTMLElement, specs: ValueSpec[]): ValuesHandle {
  const grid = el('div', { class: 'sd-values' });
  root.append(grid);
  const cards = new Map<string, { spec: ValueSpec; card: HTMLElement; body: HTMLElement; status: HTMLElement; foot: HTMLElement }>();
  for (const spec of specs) {
    const status = el('span', { class: 'sd-badge', 'data-status': 'loading' }, 'loading');
    const body = el('div', { class: 'sd-values-body' });
    const foot = el('p', { class: 'sd-attr' });
    const card = el(
      'section',
      { class: 'sd-value-card', 'data-type': spec.type, 'aria-label': spec.label },
      el('h3', {}, spec.label, spec.mode ? el('span', { class: 'sd-mode' }, spec.mode) : null),
      status,
      body,
      foot,
    );
    grid.append(card);
    cards.set(spec.type, { spec, card, body, status, foot });
  }

  const setStatus = (c: { status: HTMLElement; card: HTMLElement }, s: string) => {
    c.status.textContent = s.replace('_', ' ');
    c.status.dataset.status = s;
    c.card.dataset.status = s;
  };

  return {
    update(type, answer) {
      const c = cards.get(type);
      if (!c) return;
      const status = answer.meta?.source_status ?? 'ok';
      setStatus(c, status);
      const fields = c.spec.fields?.length ? c.spec.fields : null;
      const items = itemsOf(answer.data, c.spec.list);
      const parts: HTMLElement[] = [];
      if (answer.data === null || answer.data === undefined) {
        parts.push(el('p', { class: 'sd-empty' }, String(answer.meta?.reason ?? answer.meta?.note ?? 'no data')));
      } else if (items) {
        parts.push(el('p', { class: 'sd-count' }, `${items.length} ${items.length === 1 ? 'item' : 'items'}`));
        const list = el('ul', { class: 'sd-items' });
        items
          .slice(0, ITEMS_SHOWN)
          .forEach((item, i) => list.append(el('li', {}, el('strong', {}, nameOf(item, i)), valueList(item, fields ?? numericFields(item)))));
        parts.push(list);
      } else {
        parts.push(valueList(answer.data, fields ?? numericFields(answer.data)));
      }
      c.body.replaceChildren(...parts);
      const measured = answer.meta?.as_of ?? answer.meta?.fetched_at;
      c.foot.replaceChildren(
        measured ? `as of ${when(measured)}` : '',
        measured && answer.attribution ? ' · ' : '',
        attributionText(answer.attribution),
        el('span', { class: 'sd-updated' }, ` · updated ${TIME.format(Date.now())}`),
      );
      c.card.dataset.updates = String(Number(c.card.dataset.updates ?? '0') + 1);
    },
    setState(type, status, reason) {
      const c = cards.get(type);
      if (!c) return;
      setStatus(c, status);
      c.body.replaceChildren(el('p', { class: 'sd-empty' }, reason ?? status));
    },
    destroy() {
      grid.remove();
    },
  };
}
