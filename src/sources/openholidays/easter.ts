/**
 * Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm of Meeus, Jones and
 * Butcher), as YYYY-MM-DD; movable holidays are fixed offsets from it.
 */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The day `days` after Easter Sunday of `year`, YYYY-MM-DD. */
export function afterEaster(year: number, days: number): string {
  const t = Date.parse(`${easterSunday(year)}T00:00:00Z`) + days * 86400_000;
  return new Date(t).toISOString().slice(0, 10);
}
