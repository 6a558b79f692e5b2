import type { LiveChargePoint } from '../../core/records/energy.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { occupancyOf } from './ocpdb-locations.ts';
import { toBerlinIso } from '../../core/time.ts';

/**
 * DATEX II V3 JSON of the AFIR Energy Infrastructure profile, as OCPDB and eRound publish it:
 * a status publication (`aegiEnergyInfrastructureStatusPublication`: site > station > refill point
 * status) and a static table (`aegiEnergyInfrastructureTablePublication`: site > station > refill
 * point with power and connectors). The body is either `{messageContainer: {payload: [...]}}` or
 * `{payload: {...}}`; ids are `idG` (some publishers write `id`).
 */
type Json = Record<string, unknown>;

const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);
const idOf = (v: unknown): string | null => str(obj(v)?.idG) ?? str(obj(v)?.id);
/** `{value: "x"}` enumerations. */
const enumOf = (v: unknown): string | null => str(obj(v)?.value) ?? str(v);
/** Multilingual text `{values: [{lang, value}]}`, German first. */
function textOf(v: unknown): string | null {
  const values = arr(obj(v)?.values).map(obj);
  const de = values.find((x) => x && (str(x.lang) ?? 'de').toLowerCase().startsWith('de'));
  return str((de ?? values[0])?.value);
}

function zoned(ts: unknown): string | null {
  const s = str(ts);
  if (!s || !/(Z|[+-]\d{2}:?\d{2})$/.test(s)) return null;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? null : toBerlinIso(ms);
}

/** Every payload member of the body that carries `key`. */
function publications(body: unknown, key: string): Json[] {
  const root = obj(body);
  const payloads = arr(obj(root?.messageContainer)?.payload ?? root?.payload);
  return payloads.map((p) => obj(obj(p)?.[key])).filter((p): p is Json => p !== null);
}

export interface StatusPoint {
  id: string;
  stationId: string | null;
  siteId: string | null;
  status: string | null;
  lastUpdated: string | null;
}

export interface StatusPublication {
  publicationTime: string | null;
  points: StatusPoint[];
}

export function parseAfirStatus(body: unknown): StatusPublication {
  const pubs = publications(body, 'aegiEnergyInfrastructureStatusPublication');
  if (pubs.length === 0) throw new UpstreamError('parse', 'DATEX II: no AFIR energy infrastructure status publication');
  const points: StatusPoint[] = [];
  for (const pub of pubs) {
    for (const site of arr(pub.energyInfrastructureSiteStatus).map(obj)) {
      const siteId = idOf(site?.reference);
      for (const station of arr(site?.energyInfrastructureStationStatus).map(obj)) {
        const stationId = idOf(station?.reference);
        for (const item of arr(station?.refillPointStatus).map(obj)) {
          // Publishers wrap the status in its class (aegiRefillPointStatus) or give it bare.
          const rp = obj(item?.aegiRefillPointStatus) ?? obj(item?.aegiElectricChargingPointStatus) ?? item;
          const id = idOf(rp?.reference);
          if (!rp || !id) continue;
          points.push({ id, stationId, siteId, status: enumOf(rp.status), lastUpdated: zoned(rp.lastUpdated) });
        }
      }
    }
  }
  return { publicationTime: zoned(pubs[0]!.publicationTime), points };
}

export interface StaticPoint {
  name: string | null;
  operator: string | null;
  street: string | null;
  houseNumber: string | null;
  postCode: string | null;
  place: string | null;
  lat: number | null;
  lon: number | null;
  powerKw: number | null;
  plugTypes: string[];
}

function addressOf(site: Json) {
  const location = obj(obj(site.locationReference)?.locPointLocation);
  const coords = obj(obj(location?.pointByCoordinates)?.pointCoordinates);
  const address = obj(obj(obj(location?.locLocationExtensionG)?.AfirFacilityLocation)?.address);
  const line = (type: string) => textOf(obj(arr(address?.addressLine).find((l) => enumOf(obj(l)?.type) === type))?.text);
  const lat = Number(coords?.latitude),
    lon = Number(coords?.longitude);
  const post = str(address?.postcode);
  return {
    street: line('street'),
    houseNumber: line('houseNumber'),
    // Publishers pad post codes ("44789 "); anything but five digits is no post code.
    postCode: post && /^\d{5}$/.test(post) ? post : null,
    place: textOf(address?.city),
    lat: Number.isFinite(lat) && coords?.latitude !== undefined ? lat : null,
    lon: Number.isFinite(lon) && coords?.longitude !== undefined ? lon : null,
  };
}

/** The static table by refill point id (a plain object: it is cached as JSON). */
export function parseAfirTable(body: unknown): Record<string, StaticPoint> {
  const pubs = publications(body, 'aegiEnergyInfrastructureTablePublication');
  if (pubs.length === 0) throw new UpstreamError('parse', 'DATEX II: no AFIR energy infrastructure table publication');
  const out: Record<string, StaticPoint> = {};
  for (const pub of pubs) {
    for (const table of arr(pub.energyInfrastructureTable).map(obj)) {
      for (const site of arr(table?.energyInfrastructureSite).map(obj)) {
        if (!site) continue;
        const where = addressOf(site);
        const name = textOf(site.name);
        const operator = textOf(obj(obj(site.operator)?.afacAnOrganisation)?.name);
        for (const station of arr(site.energyInfrastructureStation).map(obj)) {
          for (const item of arr(station?.refillPoint).map(obj)) {
            const rp = obj(item?.aegiElectricChargingPoint) ?? item;
            const id = idOf(rp);
            if (!rp || !id) continue;
            const connectors = arr(rp.connector).map(obj);
            const watts = [...arr(rp.availableChargingPower), ...connectors.map((c) => c?.maxPowerAtSocket)].filter(
              (w): w is number => typeof w === 'number' && w > 0,
            );
            out[id] = {
              name,
              operator,
              ...where,
              powerKw: watts.length ? Math.max(...watts) / 1000 : null,
              plugTypes: [...new Set(connectors.map((c) => enumOf(c?.connectorType)).filter((t): t is string => t !== null))],
            };
          }
        }
      }
    }
  }
  return out;
}

/** DATEX II refill point status values that OCPI lacks, mapped to OCPI's (occupancyOf buckets the rest). */
const DATEX_STATUS: Record<string, string> = { faulted: 'OUTOFORDER', outOfOrder: 'OUTOFORDER', occupied: 'CHARGING' };

/** Status points joined with the static table where the ids meet; the rest keep null static fields. */
export function joinChargePoints(status: StatusPoint[], table: Record<string, StaticPoint> | null): LiveChargePoint[] {
  const out: LiveChargePoint[] = [];
  for (const p of status) {
    const bucket = occupancyOf(p.status === null ? undefined : (DATEX_STATUS[p.status] ?? p.status));
    if (bucket === null) continue;
    const s = table && Object.hasOwn(table, p.id) ? table[p.id] : undefined;
    out.push({
      id: p.id,
      station_id: p.stationId,
      site_id: p.siteId,
      status: bucket,
      upstream_status: p.status,
      last_updated_at: p.lastUpdated,
      static_joined: s !== undefined,
      name: s?.name ?? null,
      operator: s?.operator ?? null,
      street: s?.street ?? null,
      house_number: s?.houseNumber ?? null,
      post_code: s?.postCode ?? null,
      place: s?.place ?? null,
      lat: s?.lat ?? null,
      lon: s?.lon ?? null,
      power_kw: s?.powerKw ?? null,
      plug_types: s?.plugTypes ?? [],
    });
  }
  return out;
}

/** The answer for one operator: no point is no_data; meta says how many points the static table completed. */
export function chargingResult(status: StatusPublication, table: Record<string, StaticPoint> | null, tableNote: string | null) {
  const points = joinChargePoints(status.points, table);
  const joined = points.filter((p) => p.static_joined).length;
  const meta = {
    points_with_static: joined,
    points_status_only: points.length - joined,
    static_table: tableNote ?? (joined === 0 ? 'no status point is in the static table: static fields are null' : 'joined by refill point id'),
  };
  if (points.length === 0)
    return {
      data: null,
      status: 'no_data' as const,
      as_of: status.publicationTime,
      meta: { ...meta, reason: 'the status publication lists no charging point' },
    };
  return { data: points, as_of: newestStatus(points) ?? status.publicationTime, meta };
}

/** The newest status time of the points, for as_of. */
export function newestStatus(points: LiveChargePoint[]): string | null {
  let best: string | null = null;
  for (const p of points) if (p.last_updated_at && (best === null || Date.parse(p.last_updated_at) > Date.parse(best))) best = p.last_updated_at;
  return best;
}
