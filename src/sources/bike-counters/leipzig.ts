import type { SourceHttp } from '../../core/adapter-http.ts';
import type { BikeCountStationRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { utmPointPosition } from '../../core/utm.ts';
import { BIKE_FEEDS } from './source.ts';
import { addCount, summariseStation, type CountedStation } from './days.ts';
import { decodeText } from '../../core/delimited.ts';

export const LEIPZIG_DAILY_LAYER = 'OpenData:radverkehr_dauerzaehlstelle_anzahl_tag_zeitreihe';
/** Newest rows asked for: about 30 stations times the seven days, with room for stations added later. */
export const LEIPZIG_ROWS = 1000;

/** A GeoJSON layer: `features` is what is read; each feature's members are read tolerantly below. */
const LayerShape = z.looseObject({ features: z.array(z.unknown()) });

interface DailyFeature {
  geometry?: { type?: string; coordinates?: unknown } | null;
  properties?: { stationid?: unknown; stationname?: unknown; phenomenontime?: unknown; count?: unknown } | null;
}

/**
 * GeoJSON of the daily layer: one feature per station and day with `stationid`, `stationname`,
 * `phenomenontime` (a calendar day, YYYY-MM-DD) and `count`.
 */
export function parseLeipzigDaily(body: unknown): BikeCountStationRecord[] {
  const { features } = shaped(LayerShape, body, 'Leipzig bicycle count layer');
  const stations = new Map<string, CountedStation>();
  for (const f of features as DailyFeature[]) {
    const p = f && typeof f === 'object' ? f.properties : null;
    const id = typeof p?.stationid === 'string' ? p.stationid : null;
    const date = typeof p?.phenomenontime === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(p.phenomenontime)?.[0] : undefined;
    const count = typeof p?.count === 'number' ? p.count : Number(p?.count);
    if (!id || !date || !Number.isInteger(count) || count < 0) continue;
    let s = stations.get(id);
    if (!s) {
      s = { id, name: typeof p?.stationname === 'string' ? p.stationname : null, ...utmPointPosition(f.geometry, 33), days: new Map() };
      stations.set(id, s);
    }
    addCount(s.days, date, count);
  }
  return [...stations.values()].map((s) => summariseStation(s, BIKE_FEEDS.leipzig, 'day')).filter((s) => s !== null);
}

export async function fetchLeipzig(http: SourceHttp, signal?: AbortSignal): Promise<BikeCountStationRecord[]> {
  const res = await http.request('', {
    base: http.url('leipzig'),
    signal,
    query: {
      service: 'WFS',
      version: '2.0.0',
      request: 'GetFeature',
      typeNames: LEIPZIG_DAILY_LAYER,
      outputFormat: 'application/json',
      sortBy: 'phenomenontime DESC',
      count: LEIPZIG_ROWS,
    },
  });
  let body: unknown;
  try {
    // The server declares UTF-8 but has been seen sending Windows-1252 (station names with ß).
    body = JSON.parse(decodeText(res.body));
  } catch {
    throw new UpstreamError('parse', 'Leipzig bicycle count layer is not JSON');
  }
  return parseLeipzigDaily(body);
}
