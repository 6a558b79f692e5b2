import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { occupancyShare } from '../city-parking/sites.ts';
import { find, findAll, numberAt, textOf, type XNode } from './datex2.ts';
import { pointOf, zoned } from './situation.ts';

/**
 * The two DATEX II parking profiles of the Mobilithek city offers, each a static table joined
 * with a dynamic status by id:
 * - V3 (`http://datex2.eu/schema/3/parking`): `parkingRecord@id` (static) and
 *   `parkingRecordStatus/parkingRecordReference@id` (dynamic); occupancy in percent.
 * - V2 ParkingFacility: `parkingFacility@id` (static) and
 *   `parkingFacilityStatus/parkingFacilityReference@id` (dynamic); occupancy a 0..1 share,
 *   except feeds that already send percent (Magdeburg).
 */
export type ParkingProfile = 'v3' | 'v2-facility';

/** How a feed states its occupancy value. */
export type OccupancyScale = 'percent' | 'share';

/** The record element and the publication (xsi:type of the payload) of each side of a profile. */
export const PROFILE_ELEMENTS: Record<ParkingProfile, Record<'static' | 'dynamic', { record: string; publication: string }>> = {
  v3: {
    static: { record: 'parkingRecord', publication: 'ParkingTablePublication' },
    dynamic: { record: 'parkingRecordStatus', publication: 'ParkingStatusPublication' },
  },
  // V2 wraps both tables in a GenericPublication (genericPublicationExtension).
  'v2-facility': {
    static: { record: 'parkingFacility', publication: 'GenericPublication' },
    dynamic: { record: 'parkingFacilityStatus', publication: 'GenericPublication' },
  },
};

export interface StaticSite {
  id: string;
  name: string | null;
  capacity: number | null;
  lat: number | null;
  lon: number | null;
}

export interface DynamicSite {
  id: string;
  free: number | null;
  capacityOverride: number | null;
  /** The feed's own occupancy, normalised to a 0..1 share. */
  occupancy: number | null;
  state: 'open' | 'closed' | 'unknown';
  updatedAt: string | null;
}

/** A multilingual DATEX name (`values/value`, German first) or a plain text element. */
function nameOf(node: XNode | null): string | null {
  if (!node) return null;
  const values = findAll(node, 'value');
  const de = values.find((v) => (v.attrs.lang ?? 'de').toLowerCase().startsWith('de'));
  return textOf(de ?? values[0] ?? null) ?? textOf(node);
}

const count = (n: number | null): number | null => (n !== null && Number.isInteger(n) && n >= 0 ? n : null);

export function parseStaticSite(rec: XNode, profile: ParkingProfile): StaticSite | null {
  const id = rec.attrs.id;
  if (!id) return null;
  const at = pointOf(rec);
  return {
    id,
    name: nameOf(find(rec, profile === 'v3' ? 'parkingName' : 'parkingFacilityName')),
    capacity: count(numberAt(rec, profile === 'v3' ? 'parkingNumberOfSpaces' : 'totalParkingCapacity')),
    lat: at?.lat ?? null,
    lon: at?.lon ?? null,
  };
}

/** V2 repeats `parkingFacilityStatus` inside the record as an enum list (open, closed, spacesAvailable, full ...). */
function stateOf(values: (string | null)[]): DynamicSite['state'] {
  if (values.includes('closed')) return 'closed';
  if (values.includes('open')) return 'open';
  return 'unknown';
}

export function parseDynamicSite(rec: XNode, profile: ParkingProfile, scale: OccupancyScale): DynamicSite | null {
  const ref = find(rec, profile === 'v3' ? 'parkingRecordReference' : 'parkingFacilityReference');
  const id = ref?.attrs.id;
  if (!id) return null;
  let reported: number | null;
  let states: (string | null)[];
  if (profile === 'v3') {
    // `parkingOccupancy` is the container and, inside it, the percentage value.
    const container = rec.children.find((c) => c.name === 'parkingOccupancy') ?? null;
    reported = container ? numberAt(container, 'parkingOccupancy') : null;
    states = [textOf(find(rec, 'parkingSiteOpeningStatus')), textOf(find(rec, 'parkingSiteStatus'))];
  } else {
    reported = numberAt(rec, 'parkingFacilityOccupancy');
    states = rec.children.filter((c) => c.name === 'parkingFacilityStatus').map(textOf);
  }
  const occupancy = reported === null ? null : scale === 'percent' || profile === 'v3' ? reported / 100 : reported;
  return {
    id,
    free: count(numberAt(rec, profile === 'v3' ? 'parkingNumberOfVacantSpaces' : 'totalNumberOfVacantParkingSpaces')),
    capacityOverride: count(numberAt(rec, profile === 'v3' ? 'parkingNumberOfSpacesOverride' : 'totalParkingCapacityOverride')),
    occupancy: occupancy !== null && occupancy >= 0 && occupancy <= 1 ? Math.round(occupancy * 1000) / 1000 : null,
    state: stateOf(states),
    updatedAt: zoned(textOf(find(rec, profile === 'v3' ? 'parkingStatusOriginTime' : 'parkingFacilityStatusTime'))),
  };
}

/**
 * Static table joined with the dynamic status: every site of either side, static-only sites
 * without a live count and status-only sites without name and position (nothing is made up).
 */
export function joinParking(statics: StaticSite[], dynamics: DynamicSite[], source: string, license: string): ParkingSiteRecord[] {
  const live = new Map(dynamics.map((d) => [d.id, d]));
  const ids = [...new Set([...statics.map((s) => s.id), ...dynamics.map((d) => d.id)])];
  const byId = new Map(statics.map((s) => [s.id, s]));
  return ids.map((id) => {
    const s = byId.get(id);
    const d = live.get(id);
    const capacity = d?.capacityOverride ?? s?.capacity ?? null;
    // A count above the capacity is no count the feed can mean.
    const free = d?.free !== undefined && d.free !== null && (capacity === null || d.free <= capacity) ? d.free : null;
    return {
      id: `${source}:${id}`,
      name: s?.name ?? null,
      street: null,
      house_number: null,
      post_code: null,
      place: null,
      lat: s?.lat ?? null,
      lon: s?.lon ?? null,
      capacity,
      free_spaces: free,
      occupancy_share: occupancyShare(free, capacity) ?? d?.occupancy ?? null,
      state: d?.state ?? 'unknown',
      live: d !== undefined && (d.free !== null || d.occupancy !== null),
      updated_at: d?.updatedAt ?? null,
      source,
      license,
    };
  });
}
