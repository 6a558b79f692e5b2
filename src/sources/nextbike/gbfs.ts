import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { FormatDriftError } from '../../core/format-drift-error.ts';

const optText = z.string().nullish();
const optNumber = z.number().nullish();
const optFlag = z.union([z.boolean(), z.number()]).nullish();

const SystemInformationShape = z
  .looseObject({ system_id: optText, name: optText, operator: optText, license_id: optText, license_url: optText })
  .refine((i) => typeof i.license_id === 'string' || typeof i.license_url === 'string', {
    message: 'neither license_id nor license_url',
    path: ['license_id'],
  });
/**
 * The data of each feed the adapter reads. A station or bike without an id or a numeric position cannot be placed
 * and is left out; `capacity` is optional in GBFS 2.3 (null then). The licence decides whether a system is shown,
 * so a system_information without one is drift, not "no open licence".
 */
const FEEDS = {
  system_information: SystemInformationShape,
  station_information: z.looseObject({
    stations: z.array(z.looseObject({ station_id: optText, name: optText, lat: optNumber, lon: optNumber, capacity: optNumber })),
  }),
  station_status: z.looseObject({
    stations: z.array(
      z.looseObject({
        station_id: optText,
        num_bikes_available: optNumber,
        num_docks_available: optNumber,
        is_renting: optFlag,
        is_installed: optFlag,
        last_reported: optNumber,
      }),
    ),
  }),
  free_bike_status: z.looseObject({
    bikes: z.array(z.looseObject({ bike_id: optText, lat: optNumber, lon: optNumber, is_reserved: optFlag, is_disabled: optFlag, vehicle_type_id: optText })),
  }),
} as const;
export type GbfsFeed = keyof typeof FEEDS;
export type SystemInformation = z.input<typeof SystemInformationShape>;
export type StationInformation = z.output<(typeof FEEDS)['station_information']>;
export type StationStatus = z.output<(typeof FEEDS)['station_status']>;

/** GBFS v2 envelope: `{last_updated (epoch s), ttl, version, data}`. */
const envelope = <S extends z.ZodType>(data: S) => z.looseObject({ last_updated: optNumber, data });

/** One feed's answer, its members checked; a mismatch is drift naming the feed and the JSON path. */
export function gbfsFeed<K extends GbfsFeed>(body: unknown, name: K): { last_updated?: number | null; data: z.output<(typeof FEEDS)[K]> } {
  return shaped(envelope(FEEDS[name]), body, `GBFS ${name}`) as { last_updated?: number | null; data: z.output<(typeof FEEDS)[K]> };
}

/** Feed URLs are absolute URLs on the operator's host. */
const DiscoveryShape = envelope(
  z.record(
    z.string(),
    z.looseObject({
      feeds: z.array(z.looseObject({ name: z.string(), url: z.string().refine((u) => URL.canParse(u), 'not a URL') })),
    }),
  ),
);

/** Feed URLs of the discovery file, German first, else English, else the first language. */
export function feedUrls(discovery: unknown): Map<string, string> {
  const d = shaped(DiscoveryShape, discovery, 'GBFS gbfs.json').data;
  const lang = d.de ? 'de' : d.en ? 'en' : Object.keys(d)[0];
  const out = new Map<string, string>();
  for (const f of (lang ? d[lang]?.feeds : undefined) ?? []) out.set(f.name, f.url);
  if (out.size === 0) throw new FormatDriftError(`GBFS gbfs.json $.data${lang ? `.${lang}` : ''}.feeds: lists no feeds`, '$.data.feeds');
  return out;
}

/** Licences a system may carry to be shown: open ones only. */
const OPEN = /(^|\/)(cc0|cc-by|cc-by-sa|odbl|dl-de[-/]zero|dl-de[-/]by|publicdomain\/zero|licenses\/by(-sa)?\/)/i;
export function openLicense(info: SystemInformation): string | null {
  const l = info.license_id ?? info.license_url ?? '';
  return l && OPEN.test(l.replace(/\s/g, '-').toLowerCase()) ? l : null;
}

export const flag = (v: boolean | number | null | undefined): boolean | null => (v == null ? null : v === true || v === 1);
export const epoch = (s: number | null | undefined): string | null => (typeof s === 'number' && s > 0 ? toBerlinIso(s * 1000) : null);

/** A station of the system joined with its status; `distance_km` is added by the caller, which knows the city. */
export interface JoinedStation {
  system_id: string;
  station_id: string;
  name: string | null;
  lat: number;
  lon: number;
  capacity: number | null;
  vehicles_available: number | null;
  docks_available: number | null;
  is_renting: boolean | null;
  last_reported: string | null;
}

/** Blanks at the ends and runs of blanks inside, as nextbike names carry them (`Hütteldorf  S U`, `Absbergbrücke `). */
const stationName = (v: unknown): string | null => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() || null : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * station_information joined with station_status by `station_id`. `capacity` is optional in GBFS 2.3 and
 * missing on many nextbike stations (virtual stations): null then, never 0. A station without an id or a
 * numeric position cannot be placed and is left out.
 */
export function joinStations(info: StationInformation | undefined, status: StationStatus | undefined, systemId: string): JoinedStation[] {
  const statusById = new Map((status?.stations ?? []).filter((s) => s.station_id).map((s) => [s.station_id!, s]));
  return (info?.stations ?? [])
    .filter((s): s is typeof s & { station_id: string; lat: number; lon: number } => !!s.station_id && typeof s.lat === 'number' && typeof s.lon === 'number')
    .map((s) => {
      const st = statusById.get(s.station_id);
      return {
        system_id: systemId,
        station_id: s.station_id,
        name: stationName(s.name),
        lat: s.lat,
        lon: s.lon,
        capacity: count(s.capacity),
        vehicles_available: count(st?.num_bikes_available),
        docks_available: count(st?.num_docks_available),
        is_renting: st ? flag(st.is_renting) : null,
        last_reported: epoch(st?.last_reported),
      };
    });
}
