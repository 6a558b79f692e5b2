import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import type { EventXml, MessageXml, StopXml, TimetableXml } from './xml.ts';

export type BoardKind = 'departures' | 'arrivals';

/** Timetables message types (`m/@t`), named after DB's schema description. */
const MESSAGE_TYPES: Record<string, string> = {
  h: 'him_notice',
  q: 'quality_change',
  f: 'free_text',
  d: 'delay_cause',
  i: 'ibis',
  u: 'ibis_unassigned',
  r: 'disruption',
  c: 'connection',
};

export interface BoardMessage {
  id: string | null;
  type: string;
  code: number | null;
  category: string | null;
  text: string | null;
  priority: number | null;
  valid_from: string | null;
  valid_until: string | null;
  published_at: string | null;
}

export interface BoardEntry {
  id: string;
  name: string | null;
  line: string | null;
  category: string | null;
  number: string | null;
  operator: string | null;
  long_distance: boolean;
  destination?: string | null;
  origin?: string | null;
  via: string[];
  planned_time: string | null;
  expected_time: string | null;
  delay_s: number | null;
  planned_platform: string | null;
  platform: string | null;
  platform_changed: boolean;
  cancelled: boolean;
  cancelled_at: string | null;
  added: boolean;
  realtime: boolean;
  messages: BoardMessage[];
}

/** DB's `yyMMddHHmm` is Europe/Berlin wall-clock time without an offset. */
export function dbTime(v: string | undefined): Date | null {
  const m = v ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(v) : null;
  if (!m) return null;
  return berlinLocalToDate(2000 + Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
}

const iso = (d: Date | null) => (d ? toBerlinIso(d) : null);
const intOrNull = (v: string | undefined) => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null);

function message(m: MessageXml): BoardMessage {
  return {
    id: m.id ?? null,
    type: MESSAGE_TYPES[m.t ?? ''] ?? m.t ?? 'unknown',
    code: intOrNull(m.c),
    category: m.cat ?? null,
    text: m.ext ?? m.int ?? null,
    priority: intOrNull(m.pr),
    valid_from: iso(dbTime(m.from)),
    valid_until: iso(dbTime(m.to)),
    published_at: iso(dbTime(m.ts)),
  };
}

/** Stop-level and event-level messages, newest first, deleted ones dropped, one per id. */
function messages(...lists: (MessageXml[] | undefined)[]): BoardMessage[] {
  const seen = new Set<string>();
  const out: BoardMessage[] = [];
  for (const m of lists.flatMap((l) => l ?? [])) {
    if (m.del === '1') continue;
    const key = m.id ?? JSON.stringify(m);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(message(m));
  }
  return out.sort((a, b) => (b.published_at ?? '').localeCompare(a.published_at ?? ''));
}

function entry(kind: BoardKind, plan: StopXml | undefined, change: StopXml | undefined): BoardEntry | null {
  const key = kind === 'departures' ? 'dp' : 'ar';
  const p: EventXml = plan?.[key] ?? {};
  const c: EventXml = change?.[key] ?? {};
  if (!plan?.[key] && !change?.[key]) return null;
  if ((c.hi ?? p.hi) === '1') return null;
  const tl = plan?.tl ?? change?.tl ?? {};
  const planned = dbTime(p.pt ?? c.pt);
  const expected = dbTime(c.ct);
  const status = c.cs ?? p.ps;
  const path = (c.cpth ?? p.ppth ?? '').split('|').filter((s) => s.trim() !== '');
  const line = (c.l ?? p.l ?? (tl as { l?: string }).l) || null;
  const plannedPlatform = p.pp ?? null;
  const platform = c.cp ?? plannedPlatform;
  const e: BoardEntry = {
    id: (plan ?? change)!.id,
    name: tl.c && tl.n ? `${tl.c} ${tl.n}` : null,
    line: tl.c ? `${tl.c} ${line ?? tl.n ?? ''}`.trim() : line,
    category: tl.c ?? null,
    number: tl.n ?? null,
    operator: tl.o ?? null,
    long_distance: tl.f === 'F',
    via: [],
    planned_time: iso(planned),
    expected_time: iso(expected),
    delay_s: planned && expected ? Math.round((expected.getTime() - planned.getTime()) / 1000) : null,
    planned_platform: plannedPlatform,
    platform,
    platform_changed: c.cp !== undefined && c.cp !== plannedPlatform,
    cancelled: status === 'c',
    cancelled_at: iso(dbTime(c.clt)),
    added: status === 'a',
    realtime: change !== undefined,
    messages: messages(change?.m, c.m, p.m),
  };
  if (kind === 'departures') {
    e.destination = path.at(-1) ?? null;
    e.via = path.slice(0, -1);
  } else {
    e.origin = path[0] ?? null;
    e.via = path.slice(1);
  }
  return e;
}

/**
 * Joins the planned hour slots with the full change list on the stop id. Trains that exist
 * only in the changes (added trips) are kept when they fall inside `window`.
 */
export function mergeBoard(kind: BoardKind, plans: TimetableXml[], changes: TimetableXml | null, window?: { from: Date; to: Date }) {
  const planned = new Map<string, StopXml>();
  for (const t of plans) for (const s of t.s) if (s.id && !planned.has(s.id)) planned.set(s.id, s);
  const changed = new Map<string, StopXml>();
  for (const s of changes?.s ?? []) if (s.id) changed.set(s.id, s);

  const entries: BoardEntry[] = [];
  for (const [id, s] of planned) {
    const e = entry(kind, s, changed.get(id));
    if (e) entries.push(e);
  }
  for (const [id, s] of changed) {
    if (planned.has(id) || !s.tl) continue;
    const e = entry(kind, undefined, s);
    if (!e) continue;
    const t = Date.parse(e.expected_time ?? e.planned_time ?? '');
    if (window && !(t >= window.from.getTime() && t < window.to.getTime())) continue;
    entries.push(e);
  }
  entries.sort((a, b) => Date.parse(a.planned_time ?? a.expected_time ?? '') - Date.parse(b.planned_time ?? b.expected_time ?? ''));
  const station = plans.find((t) => t.station)?.station ?? changes?.station ?? null;
  return { station, entries };
}
