import type { Adapter, FetchContext, GlobalAdapter } from '../../core/data-type.ts';
import type { LiveChargePoint } from '../../core/records/energy.ts';
import { chargingResult, parseAfirStatus } from '../mobidata/afir.ts';
import type { CountingStation, LowEmissionZone, RoadEvent } from '../../core/records/roads.ts';
import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import type { SourceDecl } from '../../core/source.ts';
import { guardedParking } from '../city-parking/sites.ts';
import { joinParking, parseDynamicSite, parseStaticSite, PROFILE_ELEMENTS, type OccupancyScale, type ParkingProfile, type StaticSite } from './parking.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { find, readDatex, textOf, type Datex } from './datex2.ts';
import { parseSiteMeasurements } from './measured.ts';
import { pullSubscription, type PullStyle } from './pull.ts';
import { comments, parseSituationRecord, pointOf, zoned } from './situation.ts';
import {
  HANNOVER_SUBSCRIPTION,
  KIEL_SUBSCRIPTION,
  KOELN_LEZ_SUBSCRIPTION,
  EROUND_SUBSCRIPTION,
  FRANKFURT_PARKING,
  MAGDEBURG_PARKING,
  WUPPERTAL_PARKING,
  type ParkingSubscriptions,
} from './sources.ts';

/** Situation records farther than this from the city point are left out (regional feeds reach beyond the city). */
export const CITY_RADIUS_KM = 30;

const NOTHING = 'the Mobilithek subscription is active but has nothing to deliver right now (HTTP 422 or an empty answer)';

/** Pull and stream-read one subscription; null when it has nothing to deliver. */
async function pull(http: Parameters<Adapter<unknown>>[0]['http'], subscription: string, record: string, publication: string): Promise<Datex | null> {
  const body = await pullSubscription(http, subscription);
  if (body === null) return null;
  const d = readDatex(body, record);
  if (d.publication !== null && d.publication !== publication) throw new UpstreamError('parse', `Mobilithek: expected ${publication}, got ${d.publication}`);
  if (d.publication === null && d.records.length === 0) throw new UpstreamError('parse', `Mobilithek: the answer is no DATEX II ${publication}`);
  return d;
}

/** Hannover's traffic messages (DATEX II v2 SituationPublication), within the city radius. */
export const hannoverTrafficReports: Adapter<RoadEvent[]> = async ({ http, city }) => {
  const d = await pull(http, HANNOVER_SUBSCRIPTION, 'situationRecord', 'SituationPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const events = d.records
    .map((r) => parseSituationRecord(r, 'mobilithek-hannover', city))
    .filter((e) => e.distance_km === null || e.distance_km <= CITY_RADIUS_KM);
  const as_of = zoned(d.publicationTime);
  if (events.length === 0)
    return { data: null, status: 'no_data', as_of, meta: { reason: `no traffic message within ${CITY_RADIUS_KM} km`, radius_km: CITY_RADIUS_KM } };
  return { data: events, as_of, meta: { count: events.length, radius_km: CITY_RADIUS_KM } };
};

/** Kiel's permanent counting stations (DATEX II v2 MeasuredDataPublication): vehicles and bicycles per site. */
export const kielCountingStations: Adapter<CountingStation[]> = async ({ http }) => {
  const d = await pull(http, KIEL_SUBSCRIPTION, 'siteMeasurements', 'MeasuredDataPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const stations = d.records.map((s) => parseSiteMeasurements(s, d.publicationTime));
  const as_of = zoned(d.publicationTime);
  if (stations.length === 0) return { data: null, status: 'no_data', as_of, meta: { reason: 'the publication lists no counting site' } };
  return { data: stations, as_of, meta: { count: stations.length } };
};

/** Köln's low-emission zone as the city publishes it (DATEX II v2 SituationPublication records). */
export const koelnLowEmissionZone: Adapter<LowEmissionZone[]> = async ({ http }) => {
  const d = await pull(http, KOELN_LEZ_SUBSCRIPTION, 'situationRecord', 'SituationPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const zones: LowEmissionZone[] = d.records.map((r) => {
    const lines = comments(r);
    const at = pointOf(r);
    return {
      id: r.attrs.id ?? null,
      situation_type: r.attrs.type ?? null,
      name: lines[0] ?? null,
      rules: lines.slice(1),
      start: zoned(textOf(find(r, 'overallStartTime'))),
      end: zoned(textOf(find(r, 'overallEndTime'))),
      lat: at?.lat ?? null,
      lon: at?.lon ?? null,
      raw: { situation_record_type: r.attrs.type ?? null, version: r.attrs.version ?? null },
    };
  });
  const as_of = zoned(d.publicationTime);
  if (zones.length === 0) return { data: null, status: 'no_data', as_of, meta: { reason: 'the publication lists no zone record' } };
  return { data: zones, as_of, meta: { count: zones.length } };
};

/** One city's live parking offer: its two subscriptions, DATEX II profile, occupancy scale and pull URL. */
export interface ParkingFeed {
  source: SourceDecl;
  subscriptions: ParkingSubscriptions;
  profile: ParkingProfile;
  scale: OccupancyScale;
  style: PullStyle;
}

/**
 * The cities' live parking offers (research §8): Frankfurt DATEX II V3 by container pull, Magdeburg
 * and Wuppertal the V2 ParkingFacility profile; Magdeburg sends its occupancy in percent, Wuppertal a share.
 */
export const PARKING_FEEDS: Record<string, ParkingFeed> = {
  'frankfurt-am-main': { ...FRANKFURT_PARKING, profile: 'v3', scale: 'percent', style: 'container' },
  magdeburg: { ...MAGDEBURG_PARKING, profile: 'v2-facility', scale: 'percent', style: 'path' },
  wuppertal: { ...WUPPERTAL_PARKING, profile: 'v2-facility', scale: 'share', style: 'path' },
};

/** The static table changes rarely; its subscription may answer 422 between changes. */
const STATIC_TABLE = { freshSeconds: 6 * 3600, staleSeconds: 7 * 86400 };

async function parkingSites(http: Parameters<Adapter<unknown>>[0]['http'], subscription: string, feed: ParkingFeed, which: 'static' | 'dynamic') {
  const body = await pullSubscription(http, subscription, feed.style);
  if (body === null) return null;
  const { record, publication } = PROFILE_ELEMENTS[feed.profile][which];
  const d = readDatex(body, record);
  if (d.publication !== publication) throw new UpstreamError('parse', `Mobilithek: expected a DATEX II ${publication}, got ${d.publication ?? 'none'}`);
  return d;
}

/** The static table (cached), or why there is none: the live counts are served without it then. */
async function staticTable(ctx: FetchContext, feed: ParkingFeed): Promise<{ sites: StaticSite[] | null; note: string }> {
  try {
    const sites = await ctx.cached('parking-static-table', STATIC_TABLE, async () => {
      const d = await parkingSites(ctx.http, feed.subscriptions.static, feed, 'static');
      return d ? d.records.map((r) => parseStaticSite(r, feed.profile)).filter((s) => s !== null) : null;
    });
    return { sites, note: sites === null ? 'the static subscription delivered nothing: sites without name, capacity and position' : 'joined by id' };
  } catch (err) {
    return {
      sites: null,
      note: `the static table could not be read (${err instanceof UpstreamError ? err.kind : 'error'}): sites without name, capacity and position`,
    };
  }
}

/** Static table joined with the dynamic status, through the 48 h freshness guard of the parking type. */
export function liveParking(feed: ParkingFeed): Adapter<ParkingSiteRecord[]> {
  return async (ctx) => {
    const dynamic = await parkingSites(ctx.http, feed.subscriptions.dynamic, feed, 'dynamic');
    if (!dynamic) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
    const table = await staticTable(ctx, feed);
    const status = dynamic.records.map((r) => parseDynamicSite(r, feed.profile, feed.scale)).filter((s) => s !== null);
    const sites = joinParking(table.sites ?? [], status, feed.source.id, feed.source.license);
    if (sites.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the publication lists no car park' } };
    const known = new Set(table.sites?.map((s) => s.id));
    return guardedParking(sites, ctx.now, {
      static_table: table.note,
      status_records: status.length,
      status_records_without_static: status.filter((s) => !known.has(s.id)).length,
    });
  };
}

/** eRound's AFIR status (DATEX II V3 as JSON, query-style pull): status-only points, no static table is subscribed. */
export const eroundLiveCharging: GlobalAdapter<LiveChargePoint[]> = async ({ http }) => {
  const body = await pullSubscription(http, EROUND_SUBSCRIPTION, 'query', 'application/json');
  if (body === null) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamError('parse', 'Mobilithek: the eRound answer is no JSON');
  }
  return chargingResult(parseAfirStatus(json), null, 'no static table is subscribed for this operator: status-only points');
};
