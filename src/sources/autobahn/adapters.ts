import type { Adapter, AdapterResult, FetchContext, TypeRef } from '../../core/data-type.ts';
import type { EventType, RoadEvent, TrafficRecord, WebcamRecord } from '../../core/records/roads.ts';
import { limitOf } from '../../core/source.ts';
import { parseEvent, parseWebcam } from './items.ts';
import { AUTOBAHN } from './source.ts';
import { CITY_ROADS, EVENT_SNAPSHOT, WEBCAM_SNAPSHOT, nothingFound, roadSnapshot, type Service, type Snapshot } from './snapshot.ts';

/** Items farther than this from the city point are left out (AUTOBAHN_RADIUS_KM; the roads list reaches ~32 km). */
export const DEFAULT_RADIUS_KM = AUTOBAHN.limits!.RADIUS_KM!.default;
const radiusOf = (ctx: Pick<FetchContext, 'config'>) => limitOf(ctx.config, AUTOBAHN, 'RADIUS_KM');

const TYPE_OF: Partial<Record<Service, EventType>> = { roadworks: 'roadworks', warning: 'warning', closure: 'closure' };

function snapshotMeta(s: Snapshot, radiusKm: number): Record<string, unknown> {
  return { radius_km: radiusKm, roads: s.roads, ...(s.failed.length ? { failed_roads: s.failed } : {}) };
}

/** Events of the given kinds within the radius, one per identifier (a road pair can list the same event twice). */
export async function motorwayEvents(
  ctx: FetchContext,
  services: readonly ('roadworks' | 'warning' | 'closure')[],
): Promise<{ events: RoadEvent[]; snapshot: Snapshot; radiusKm: number }> {
  const radiusKm = radiusOf(ctx);
  const snapshot = await roadSnapshot(ctx, services, EVENT_SNAPSHOT);
  const seen = new Set<string>();
  const events: RoadEvent[] = [];
  for (const list of snapshot.lists) {
    const type = TYPE_OF[list.service];
    if (!type) continue;
    for (const item of list.items) {
      const e = parseEvent(item, type, list.road, ctx.city);
      if (e.distance_km === null || e.distance_km > radiusKm) continue;
      const key = e.id ? `${type}:${e.id}` : null;
      if (key && seen.has(key)) continue;
      if (key) seen.add(key);
      events.push(e);
    }
  }
  events.sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
  return { events, snapshot, radiusKm };
}

function eventsResult(events: RoadEvent[], snapshot: Snapshot, radiusKm: number, what: string): AdapterResult<RoadEvent[]> {
  const meta = snapshotMeta(snapshot, radiusKm);
  if (events.length === 0) {
    nothingFound(snapshot);
    return { data: null, status: 'no_data', meta: { ...meta, reason: `no ${what} within ${radiusKm} km on the motorways asked` } };
  }
  return { data: events, meta: { ...meta, count: events.length } };
}

/** Roadworks, warnings and closures on the motorways around the city. */
export const roadEvents: Adapter<RoadEvent[]> = async (ctx) => {
  const { events, snapshot, radiusKm } = await motorwayEvents(ctx, ['roadworks', 'warning', 'closure']);
  return eventsResult(events, snapshot, radiusKm, 'motorway roadworks, warnings or closures');
};

/** Current warnings with delay and speed, plus counts of every kind. */
export const traffic: Adapter<TrafficRecord> = async (ctx) => {
  const { events, snapshot, radiusKm } = await motorwayEvents(ctx, ['roadworks', 'warning', 'closure']);
  const meta = snapshotMeta(snapshot, radiusKm);
  if (events.length === 0) {
    nothingFound(snapshot);
    return { data: null, status: 'no_data', meta: { ...meta, reason: `no motorway event within ${radiusKm} km` } };
  }
  const warnings = events.filter((e) => e.type === 'warning').sort((a, b) => (b.delay_minutes ?? -1) - (a.delay_minutes ?? -1));
  const delays = warnings.map((w) => w.delay_minutes).filter((d): d is number => d !== null);
  return {
    data: {
      counts: {
        warning: warnings.length,
        roadworks: events.filter((e) => e.type === 'roadworks').length,
        closure: events.filter((e) => e.type === 'closure').length,
        blocked: events.filter((e) => e.blocked === true).length,
      },
      max_delay_minutes: delays.length ? Math.max(...delays) : null,
      roads: [...snapshot.roads],
      warnings,
    },
    meta,
  };
};

/** Motorway cameras around the city. */
export const webcams: Adapter<WebcamRecord[]> = async (ctx) => {
  const radiusKm = radiusOf(ctx);
  const snapshot = await roadSnapshot(ctx, ['webcam'], WEBCAM_SNAPSHOT);
  const seen = new Set<string>();
  const cams: WebcamRecord[] = [];
  for (const list of snapshot.lists) {
    for (const item of list.items) {
      const c = parseWebcam(item, list.road, ctx.city);
      if (c.distance_km === null || c.distance_km > radiusKm) continue;
      if (c.id && seen.has(c.id)) continue;
      if (c.id) seen.add(c.id);
      cams.push(c);
    }
  }
  cams.sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
  const meta = snapshotMeta(snapshot, radiusKm);
  if (cams.length === 0) {
    nothingFound(snapshot);
    return { data: null, status: 'no_data', meta: { ...meta, reason: `no motorway camera within ${radiusKm} km` } };
  }
  return { data: cams, meta: { ...meta, count: cams.length } };
};

/**
 * Live events (warnings and closures) or roadworks: the motorway feed merged with the city's
 * own feed where the catalog has one (`cityFeeds`: city slug -> data type), each item naming
 * its source. The city feed comes through the pipeline (its cache, its disabled state); when
 * it has nothing the motorway events stand alone.
 */
export function liveEvents(
  services: readonly ('roadworks' | 'warning' | 'closure')[],
  cityFeeds: Readonly<Record<string, TypeRef<RoadEvent[]>>>,
  what: string,
): Adapter<RoadEvent[]> {
  return async (ctx) => {
    const feed = cityFeeds[ctx.city.slug];
    const [motorway, cityData] = await Promise.all([
      motorwayEvents(ctx, services).then(
        (ok) => ({ ok }),
        (error: unknown) => ({ error }),
      ),
      feed ? ctx.lookup(feed, ctx.city) : Promise.resolve(null),
    ]);
    // Without the motorway feed the city's own events still answer; with neither, the motorway failure is the answer's.
    if ('error' in motorway && cityData === null) throw motorway.error;
    const roads = CITY_ROADS[ctx.city.slug] ?? [];
    const radiusKm = radiusOf(ctx);
    const meta: Record<string, unknown> = 'ok' in motorway ? snapshotMeta(motorway.ok.snapshot, radiusKm) : { radius_km: radiusKm, roads, failed_roads: roads };
    const cityEvents = Array.isArray(cityData) ? cityData.filter((e) => services.some((s) => s === e.type)) : [];
    if (feed) meta.city_feed = { type: feed.type, events: cityEvents.length };
    const merged = [...('ok' in motorway ? motorway.ok.events : []), ...cityEvents];
    if (merged.length === 0) {
      if ('ok' in motorway) nothingFound(motorway.ok.snapshot);
      return { data: null, status: 'no_data', meta: { ...meta, reason: `no ${what} within ${radiusKm} km` } };
    }
    return { data: merged, meta: { ...meta, count: merged.length } };
  };
}

/** History view of the road events near a city: how many there are, how many block a carriageway, the longest delay. */
export function summariseRoadEvents(data: unknown) {
  const events = data as { blocked?: boolean | null; delay_minutes?: number | null }[];
  const delays = events.map((e) => e.delay_minutes).filter((d): d is number => typeof d === 'number');
  return { events: events.length, blocked: events.filter((e) => e.blocked === true).length, max_delay_minutes: delays.length ? Math.max(...delays) : null };
}
