import type { DataType } from '../core/data-type.ts';
import { CITIES, distanceKm } from '../cities/register.ts';
import { BNETZA } from '../sources/bnetza/source.ts';
import { chargingStoreKey } from '../sources/bnetza/stored.ts';
import { coreName, fold, matchRadiusKm } from '../sources/bnetza/city-match.ts';
import { MOBIDATA_OCPDB } from '../sources/mobidata/source.ts';
import { assertPage, chargingStatus, type OcpiLocation } from '../sources/mobidata/ocpdb-locations.ts';

export const charging: DataType = {
  type: 'charging',
  label: 'Ladesäulen',
  label_en: 'Charging stations',
  group: 'energy',
  tool: 'charging',
  summary: 'Public charging stations of the city from the Bundesnetzagentur register (weekly precompute of the monthly edition)',
  description:
    'Stations of the Ladesäulenregister whose Bundesland, Ort (core city name) and coordinates (within a radius derived ' +
    'from the city area) agree with the city; the register has no municipality key. Aggregates: stations, charging points, ' +
    'total rated power (kW), fast/normal stations. No occupancy (see charging-status).',
  source: BNETZA,
  cache: 'stored',
  list: 'points',
  async fetch({ city, store }) {
    const raw = await store.get(chargingStoreKey(city.slug));
    if (!raw) return { data: null, status: 'no_data', meta: { reason: 'the register has not been precomputed yet' } };
    const record = JSON.parse(raw) as { edition_date: string | null; points: unknown[] };
    const meta = { edition_date: record.edition_date };
    if (record.points.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'no registered station matched the city' } };
    return { data: record, meta };
  },
};

/** MobiData BW's live feed covers Baden-Württemberg; elsewhere there is no keyless live source. */
const BW_CITIES = CITIES.filter((c) => c.state === 'BW').map((c) => c.slug);
const PAGE = 500;
const MAX_PAGES = 20;

export const chargingStatusType: DataType = {
  type: 'charging-status',
  label: 'Ladesäulen-Belegung',
  label_en: 'Charging status',
  group: 'energy',
  tool: 'charging_status',
  summary: 'Live occupancy of public charging points (available, occupied, out of order) in Baden-Württemberg cities',
  description:
    'EVSE status from the MobiData BW Open ChargePoint DataBase (OCPI locations in a box around the city, kept when ' +
    "within the city radius and the location's city names the city). OCPI AVAILABLE -> available; CHARGING, BLOCKED, RESERVED -> occupied; INOPERATIVE, OUTOFORDER -> " +
    'out_of_order; anything else -> unknown; PLANNED and REMOVED are left out.',
  source: MOBIDATA_OCPDB,
  cache: { freshSeconds: 60, staleSeconds: 900 },
  live: { refreshSeconds: 60 },
  list: 'points',
  coverage: { cities: BW_CITIES, note: 'Live charging status comes from MobiData BW and covers cities in Baden-Württemberg only.' },
  compare: {
    resource: 'charging-status',
    summarise: (d: { aggregates: Record<string, unknown>; points: unknown[] }) => ({ ...d.aggregates, points_omitted: d.points.length }),
  },
  async fetch({ city, http }) {
    const r = matchRadiusKm(city);
    const dLat = r / 111.32,
      dLon = r / (111.32 * Math.cos((city.lat * Math.PI) / 180));
    const locations: OcpiLocation[] = [];
    for (let page = 0, offset = 0; page < MAX_PAGES; page++) {
      const body = assertPage(
        await http.json('/api/public/v1/locations', {
          query: {
            lat_min: round(city.lat - dLat),
            lat_max: round(city.lat + dLat),
            lon_min: round(city.lon - dLon),
            lon_max: round(city.lon + dLon),
            limit: PAGE,
            offset,
          },
        }),
      );
      locations.push(...body.items);
      offset += body.items.length;
      if (body.items.length === 0 || offset >= body.total_count) break;
    }
    // The box reaches into neighbouring towns (Esslingen next to Stuttgart): the OCPI `city` must name the city too.
    const core = coreName(city.name);
    const data = chargingStatus(
      locations,
      (lat, lon, place) =>
        distanceKm(city.lat, city.lon, lat, lon) <= r && (place === null || (fold(place).startsWith(core) && !/[a-z]/.test(fold(place).charAt(core.length)))),
    );
    if (data.points.length === 0) return { data: null, status: 'no_data', meta: { reason: 'no charging point with live status in the city' } };
    return { data, as_of: data.aggregates.last_update };
  },
};

function round(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}

export const CHARGING_TYPES: DataType[] = [charging, chargingStatusType];
