import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { LiveBoard, LiveDeparture, Mode } from '../../core/records/departures.ts';

/** GTI `departureList` answer: `timeOffset` in minutes from `time`, `delay` in seconds. */
export interface GtiDepartureList {
  returnCode?: string;
  time?: { date?: string; time?: string };
  departures?: {
    line?: { name?: string; direction?: string; origin?: string; type?: { simpleType?: string; shortInfo?: string; longInfo?: string }; id?: string };
    timeOffset?: number;
    delay?: number;
    serviceId?: number;
    station?: { combinedName?: string; id?: string };
    platform?: string;
    realtimePlatform?: string;
    cancelled?: boolean;
    attributes?: { isPlanned?: boolean; types?: string[]; value?: string }[];
  }[];
}

/** GTI `checkName` answer. */
export interface GtiCheckName {
  returnCode?: string;
  results?: { name?: string; city?: string; combinedName?: string; id?: string; type?: string }[];
}

/** GTI's `{date: "dd.MM.yyyy", time: "HH:mm"}` is Hamburg wall-clock time. */
export function gtiTime(t: { date?: string; time?: string } | undefined): Date | null {
  const d = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(t?.date ?? '');
  const h = /^(\d{1,2}):(\d{2})$/.exec(t?.time ?? '');
  if (!d || !h) return null;
  return berlinLocalToDate(Number(d[3]), Number(d[2]), Number(d[1]), Number(h[1]), Number(h[2]));
}

/** The request's `time` member for "now". */
export function gtiNow(now: Date): { date: string; time: string } {
  const s = toBerlinIso(now);
  return { date: `${s.slice(8, 10)}.${s.slice(5, 7)}.${s.slice(0, 4)}`, time: s.slice(11, 16) };
}

function modeOf(type: { simpleType?: string; shortInfo?: string } | undefined): Mode {
  switch (type?.simpleType) {
    case 'BUS':
      return 'bus';
    case 'SHIP':
    case 'FERRY':
      return 'ferry';
    case 'TRAIN':
      if (type.shortInfo === 'U') return 'subway';
      if (type.shortInfo === 'S' || type.shortInfo === 'A') return 'suburban';
      return 'rail';
    default:
      return 'other';
  }
}

export function parseGtiDepartures(body: GtiDepartureList, stop: { id: string | null; name: string | null }): LiveBoard {
  if (!body || !Array.isArray(body.departures)) throw new UpstreamError('parse', 'GTI departureList without departures');
  const base = gtiTime(body.time);
  if (!base) throw new UpstreamError('parse', 'GTI departureList without a readable time');
  const departures: LiveDeparture[] = body.departures.map((d) => {
    const planned = typeof d.timeOffset === 'number' ? new Date(base.getTime() + d.timeOffset * 60_000) : null;
    const hasDelay = typeof d.delay === 'number';
    const realtime = hasDelay || (d.attributes ?? []).some((a) => a.types?.includes('REALTIME'));
    return {
      line: d.line?.name ?? null,
      direction: d.line?.direction ?? null,
      stop: { id: d.station?.id ?? stop.id, name: d.station?.combinedName ?? stop.name, point: null },
      planned_time: planned ? toBerlinIso(planned) : null,
      expected_time: planned && hasDelay ? toBerlinIso(new Date(planned.getTime() + d.delay! * 1000)) : null,
      delay_s: hasDelay ? d.delay! : null,
      platform: d.realtimePlatform ?? d.platform ?? null,
      mode: modeOf(d.line?.type),
      cancelled: d.cancelled === true,
      realtime,
      trip_id: d.serviceId !== undefined ? String(d.serviceId) : null,
    };
  });
  return { stop, departures, as_of: toBerlinIso(base) };
}
