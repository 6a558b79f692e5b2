import { berlinLocalToDate, hasZone, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { LiveBoard, LiveDeparture, Mode } from '../../core/records/departures.ts';

interface HafasProduct {
  name?: string;
  line?: string;
  num?: string;
  catOut?: string;
  catOutS?: string;
  catOutL?: string;
  catCode?: string;
}

interface HafasPlatform {
  type?: string;
  text?: string;
}

/** A platform object's text, or null for anything else (its shape is newer than track's). */
function platformText(p: unknown): string | null {
  const text = p && typeof p === 'object' ? (p as HafasPlatform).text : undefined;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : null;
}

/** HAFAS ReST `departureBoard` (format=json): local times without an offset. */
export interface HafasDepartureBoard {
  Departure?: {
    name?: string;
    type?: string;
    stop?: string;
    stopid?: string;
    stopExtId?: string;
    direction?: string;
    date?: string;
    time?: string;
    rtDate?: string;
    rtTime?: string;
    track?: string;
    rtTrack?: string;
    /** Newer HAFAS ReST versions: the platform as an object (`{type: "PL", text: "3"}`), beside or instead of track. */
    platform?: HafasPlatform;
    rtPlatform?: HafasPlatform;
    cancelled?: boolean;
    reachable?: boolean;
    Product?: HafasProduct | HafasProduct[];
    ProductAtStop?: HafasProduct;
    JourneyDetailRef?: { ref?: string };
  }[];
  serverVersion?: string;
  dialectVersion?: string;
  planRtTs?: string;
  errorCode?: string;
  errorText?: string;
}

function localTime(date: string | undefined, time: string | undefined): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time ?? '');
  if (!d || !t) return null;
  return berlinLocalToDate(Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2]), Number(t[3] ?? 0));
}

function modeOf(p: HafasProduct | undefined): Mode {
  const s = `${p?.catOutL ?? ''} ${p?.catOut ?? ''}`.toLowerCase();
  if (/s-bahn/.test(s) || /^\s*s\b/.test(p?.catOut?.toLowerCase() ?? '')) return 'suburban';
  if (/u-bahn/.test(s) || /^\s*u\b/.test(p?.catOut?.toLowerCase() ?? '')) return 'subway';
  if (/tram|straßenbahn/.test(s)) return 'tram';
  if (/bus/.test(s)) return 'bus';
  if (/schiff|fähre|ferry/.test(s)) return 'ferry';
  if (/\b(ice|ic|ec|ire|re|rb|vias|hlb|zug)\b/.test(s)) return 'rail';
  return 'other';
}

/** HAFAS reports an unknown stop as an error code `SVC_LOC*`, which is no data rather than a failure. */
export function isUnknownStop(body: HafasDepartureBoard): boolean {
  return typeof body?.errorCode === 'string' && body.errorCode.startsWith('SVC_LOC');
}

export function parseRmvDepartures(body: HafasDepartureBoard, requestedStop: string): LiveBoard {
  if (!body || typeof body !== 'object') throw new UpstreamError('parse', 'RMV answer is not an object');
  if (body.errorCode) throw new UpstreamError('status', `RMV error ${body.errorCode}${body.errorText ? `: ${body.errorText}` : ''}`);
  const list = body.Departure ?? [];
  if (!Array.isArray(list)) throw new UpstreamError('parse', 'RMV Departure is not a list');
  const departures: LiveDeparture[] = list.map((d) => {
    const product = d.ProductAtStop ?? (Array.isArray(d.Product) ? d.Product[0] : d.Product);
    const planned = localTime(d.date, d.time);
    const expected = d.rtTime ? localTime(d.rtDate ?? d.date, d.rtTime) : null;
    return {
      line: product?.line ?? product?.name?.trim() ?? d.name?.trim() ?? null,
      direction: d.direction ?? null,
      stop: { id: d.stopExtId ?? requestedStop, name: d.stop ?? null, point: null },
      planned_time: planned ? toBerlinIso(planned) : null,
      expected_time: expected ? toBerlinIso(expected) : null,
      delay_s: planned && expected ? Math.round((expected.getTime() - planned.getTime()) / 1000) : null,
      platform: platformText(d.rtPlatform) ?? d.rtTrack ?? platformText(d.platform) ?? d.track ?? null,
      mode: modeOf(product),
      cancelled: d.cancelled === true,
      realtime: expected !== null,
      trip_id: d.JourneyDetailRef?.ref ?? null,
    };
  });
  const first = list[0];
  // Only a zoned timestamp is an instant; a bare local one is not trusted here.
  const planRt = body.planRtTs && hasZone(body.planRtTs) ? Date.parse(body.planRtTs) : NaN;
  return {
    stop: { id: first?.stopExtId ?? requestedStop, name: first?.stop ?? null },
    departures,
    as_of: Number.isNaN(planRt) ? null : toBerlinIso(planRt),
  };
}
