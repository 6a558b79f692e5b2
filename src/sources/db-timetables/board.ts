import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import type { BoardArrival, BoardDeparture, BoardMessage } from '../../core/records/departures.ts';
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

/** A board's entry: a departure (with its destination) or an arrival (with its origin). */
export type BoardEntryOf<K extends BoardKind> = K extends 'departures' ? BoardDeparture : BoardArrival;

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

function entry<K extends BoardKind>(kind: K, plan: StopXml | undefined, change: StopXml | undefined): BoardEntryOf<K> | null {
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
  const head = {
    id: (plan ?? change)!.id,
    name: tl.c && tl.n ? `${tl.c} ${tl.n}` : null,
    line: tl.c ? `${tl.c} ${line ?? tl.n ?? ''}`.trim() : line,
    category: tl.c ?? null,
    number: tl.n ?? null,
    operator: tl.o ?? null,
    long_distance: tl.f === 'F',
  };
  const times = {
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
  const e: BoardDeparture | BoardArrival =
    kind === 'departures'
      ? { ...head, destination: path.at(-1) ?? null, via: path.slice(0, -1), ...times }
      : { ...head, origin: path[0] ?? null, via: path.slice(1), ...times };
  // `kind` decides which of the two shapes was built.
  return e as BoardEntryOf<K>;
}

/**
 * Joins the planned hour slots with the full change list on the stop id. Trains that exist
 * only in the changes (added trips) are kept when they fall inside `window`.
 */
export function mergeBoard<K extends BoardKind>(
  kind: K,
  plans: TimetableXml[],
  changes: TimetableXml | null,
  window?: { from: Date; to: Date },
): { station: string | null; entries: BoardEntryOf<K>[] } {
  const planned = new Map<string, StopXml>();
  for (const t of plans) for (const s of t.s) if (s.id && !planned.has(s.id)) planned.set(s.id, s);
  const changed = new Map<string, StopXml>();
  for (const s of changes?.s ?? []) if (s.id) changed.set(s.id, s);

  const entries: BoardEntryOf<K>[] = [];
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
