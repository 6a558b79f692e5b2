/** Timestamps always carry a zone; local German times are rendered in Europe/Berlin. */
const berlinParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  year: 'numeric', month: '2-digit', day: '2-digit',
  hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});

function parts(date: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of berlinParts.formatToParts(date)) out[p.type] = p.value;
  return out;
}

/** Offset of Europe/Berlin from UTC at `date`, in minutes (60 or 120). */
export function berlinOffsetMinutes(date: Date): number {
  const p = parts(date);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
}

/** ISO 8601 in Europe/Berlin local time with its offset, e.g. 2026-11-21T23:40:00+01:00. */
export function toBerlinIso(input: Date | number | string): string {
  const date = input instanceof Date ? input : new Date(input);
  const p = parts(date);
  const off = berlinOffsetMinutes(date);
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  const oh = String(Math.floor(abs / 60)).padStart(2, '0');
  const om = String(abs % 60).padStart(2, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${oh}:${om}`;
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
