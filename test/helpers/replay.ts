import { toBerlinIso } from '../../src/core/time.ts';

/**
 * Recorded live answers (departure boards) replayed as if recorded now: every timestamp moves by
 * one shift, so times keep their order, gaps and delays. Applied by the fake route when it serves
 * the file; the fixture file itself stays as recorded.
 */

/** Zoned ISO-8601 timestamps as JSON strings: `"2026-07-18T18:25:00Z"`, `"2014-11-24T18:06:15+01:00"`. */
const ISO = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})"/g;

/** The whole-minute shift that moves the recording's own "now" to the present. */
export function shiftTo(recordedNowMs: number, now = Date.now()): number {
  return Math.round((now - recordedNowMs) / 60_000) * 60_000;
}

/** Every zoned timestamp string of a JSON text moved by `shiftMs`; UTC stays UTC, offsets become Europe/Berlin's at the new time. */
export function shiftIsoStamps(text: string, shiftMs: number): string {
  return text.replace(ISO, (_, local: string, _frac: string | undefined, zone: string) => {
    const ms = Date.parse(`${local}${zone}`) + shiftMs;
    return JSON.stringify(zone === 'Z' ? new Date(ms).toISOString().replace('.000Z', 'Z') : toBerlinIso(ms));
  });
}

/** The earliest zoned timestamp of the JSON text, or null. */
export function earliestIsoStamp(text: string): number | null {
  const all = [...text.matchAll(ISO)].map((m) => Date.parse(`${m[1]}${m[3]}`));
  return all.length ? Math.min(...all) : null;
}
