/** Timestamps always carry a zone; local German times are rendered in Europe/Berlin. */
const berlinParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const FIELDS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;
type Field = (typeof FIELDS)[number];
const isField = (t: string): t is Field => (FIELDS as readonly string[]).includes(t);

function parts(date: Date): Record<Field, number> {
  const out: Record<Field, number> = { year: NaN, month: NaN, day: NaN, hour: NaN, minute: NaN, second: NaN };
  for (const p of berlinParts.formatToParts(date)) if (isField(p.type)) out[p.type] = +p.value;
  return out;
}

/** Offset of Europe/Berlin from UTC at `date`, in minutes (60 or 120). */
export function berlinOffsetMinutes(date: Date): number {
  const p = parts(date);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

// Europe/Berlin changes its offset only on full UTC hours: one Intl call per hour, not per value
// (envelopes and stop lists render dozens of timestamps per request).
const offsetByHour = new Map<number, number>();
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

function offsetAt(ms: number): number {
  const hour = Math.floor(ms / 3600_000);
  let off = offsetByHour.get(hour);
  if (off === undefined) {
    off = berlinOffsetMinutes(new Date(hour * 3600_000));
    if (offsetByHour.size > 10_000) offsetByHour.clear();
    offsetByHour.set(hour, off);
  }
  return off;
}

/** ISO 8601 in Europe/Berlin local time with its offset, e.g. 2026-11-21T23:40:00+01:00 (whole seconds). */
export function toBerlinIso(input: Date | number | string): string {
  const ms = input instanceof Date ? input.getTime() : typeof input === 'number' ? input : new Date(input).getTime();
  if (!Number.isFinite(ms)) throw new RangeError('Invalid time value');
  const off = offsetAt(ms);
  const d = new Date(Math.floor(ms / 1000) * 1000 + off * 60_000);
  const y = d.getUTCFullYear();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  return `${y < 1000 ? String(y).padStart(4, '0') : y}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * A wall-clock time in Europe/Berlin (no zone in the source) to an instant. DST gaps resolve
 * forward, ambiguous autumn hours to the first (summer-time) occurrence.
 */
export function berlinLocalToDate(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  let t = guess - berlinOffsetMinutes(new Date(guess)) * 60000;
  t = guess - berlinOffsetMinutes(new Date(t)) * 60000;
  return new Date(t);
}

/** A fixed-offset local time (e.g. UBA's CET without DST, +01:00 all year) to an instant. */
export function fixedOffsetLocalToDate(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMinutes: number): Date {
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60000);
}

/** True when a string is an ISO timestamp that names its zone (Z or ±hh:mm). */
export function hasZone(iso: string): boolean {
  return /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(iso);
}
