import type { Adapter } from '../../core/data-type.ts';
import type { MobilityMode, MobilityPointRecord } from '../../core/records/mobility.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { utmPointPosition } from '../../core/utm.ts';

export const MOBILITY_POINT_LAYER = 'mor_wfs:ruhver_mp_standort_point';
export const MOBILITY_POINT_CITIES: readonly string[] = ['muenchen'];

type Props = Record<string, unknown>;
/** A GeoJSON layer: `features` is what is read; each feature's members are read tolerantly below. */
const LayerShape = z.looseObject({ features: z.array(z.unknown()) });
interface Feature {
  geometry?: { type?: string; coordinates?: unknown } | null;
  properties?: Props | null;
}

/** Names and addresses carry line breaks and, in places, the same line twice ("Kidlerplatz 8, 58\r\nKidlerplatz 8, 58\r\n"). */
function cleanText(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const parts = [...new Set(v.split(/\r?\n/).map((l) => l.replace(/\s+/g, ' ').trim()))].filter((l) => l !== '');
  return parts.length ? parts.join(', ') : null;
}
const yesNo = (v: unknown) => (v === 'Ja' ? true : v === 'Nein' ? false : null);
/** Counts are integers, except taxi spaces: a number as text, or "Nein" for none. */
function count(v: unknown): number | null {
  if (v === 'Nein') return 0;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
}
const day = (v: unknown) => {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(String(v ?? ''));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

function modesOf(r: Omit<MobilityPointRecord, 'modes'>): MobilityMode[] {
  const offered: [MobilityMode, boolean | null][] = [
    ['carsharing', (r.carsharing_spaces ?? 0) > 0],
    ['taxi', (r.taxi_spaces ?? 0) > 0],
    ['charging', (r.charging_points_ac ?? 0) + (r.charging_points_dc ?? 0) > 0],
    ['bike_sharing', r.bike_sharing_area],
    ['e_scooter_sharing', r.e_scooter_sharing_area],
    ['cargo_bike_sharing', r.cargo_bike_sharing_area],
    ['moped_sharing', r.moped_sharing_area],
    ['bus', r.bus],
    ['tram', r.tram],
    ['subway', r.subway],
    ['suburban_rail', r.suburban_rail],
  ];
  return offered.filter(([, on]) => on === true).map(([mode]) => mode);
}

/**
 * The layer's GeoJSON. `ods_vorhanden` is left out: the city does not document what it stands for.
 * Points without mp_id are skipped (they cannot be named).
 */
export function parseMobilityPoints(body: unknown): MobilityPointRecord[] {
  const { features } = shaped(LayerShape, body, 'München mobility point layer');
  const out: MobilityPointRecord[] = [];
  for (const f of features as Feature[]) {
    const p: Props = (f && typeof f === 'object' ? f.properties : null) ?? {};
    const id = typeof p.mp_id === 'number' || typeof p.mp_id === 'string' ? String(p.mp_id).trim() : '';
    if (!id) continue;
    const point = {
      id,
      name: cleanText(p.name),
      address: cleanText(p.adresse),
      ...utmPointPosition(f.geometry, 32),
      carsharing_spaces: count(p.anz_stellpl_cs),
      taxi_spaces: count(p.anz_stellpl_taxi),
      charging_points_ac: count(p.anzahl_ladepunkte_ac),
      charging_points_dc: count(p.anzahl_ladepunkte_dc),
      bike_sharing_area: yesNo(p.gaf_bs_vorhanden),
      e_scooter_sharing_area: yesNo(p.gaf_ts_vorhanden),
      cargo_bike_sharing_area: yesNo(p.gaf_ls_vorhanden),
      moped_sharing_area: yesNo(p.gaf_ms_vorhanden),
      bus: yesNo(p.bus_vorhanden),
      tram: yesNo(p.tram_vorhanden),
      subway: yesNo(p.u_bahn_vorhanden),
      suburban_rail: yesNo(p.s_bahn_vorhanden),
      bike_service_station: yesNo(p.radservicestation_vorhanden),
      bike_pump: yesNo(p.radpumpe_vorhanden),
      edited_on: day(p.bearbeitung_datum),
    };
    out.push({ ...point, modes: modesOf(point) });
  }
  return out.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'de') || a.id.localeCompare(b.id));
}

/** `mobility-points`: München's mobility hub layer, whole (about 120 points). */
export const muenchenMobilityPoints: Adapter<MobilityPointRecord[]> = async ({ http, signal }) => {
  const body = await http.json<unknown>('', {
    signal,
    query: { service: 'WFS', version: '1.0.0', request: 'GetFeature', typeName: MOBILITY_POINT_LAYER, outputFormat: 'application/json' },
  });
  const points = parseMobilityPoints(body);
  if (points.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the mobility point layer lists no point' } };
  const edited =
    points
      .map((p) => p.edited_on ?? '')
      .sort()
      .at(-1) || null;
  return {
    data: points,
    meta: {
      carsharing_spaces: points.reduce((s, p) => s + (p.carsharing_spaces ?? 0), 0),
      last_edited_on: edited,
    },
  };
};
