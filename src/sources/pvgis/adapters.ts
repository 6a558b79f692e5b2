import type { Adapter } from '../../core/data-type.ts';
import type { SolarRecord } from '../../core/records/solar.ts';
import { WEATHER, type WeatherRecord } from '../../core/records/weather.ts';
import { attributionOf } from '../../core/source.ts';
import { BRIGHTSKY } from '../brightsky/source.ts';
import { parsePvcalc } from './parse.ts';
import { PV_SYSTEM, PVGIS } from './source.ts';

/**
 * kWh/m² over a window to its mean power in W/m²: 1 kWh = 3.6 MJ, so over 10 minutes (600 s)
 * 1 kWh/m² is 6000 W/m²; over 30 minutes 2000, over 60 minutes 1000.
 */
export const W_PER_KWH_M2: Readonly<Record<10 | 30 | 60, number>> = { 10: 6000, 30: 2000, 60: 1000 };

/** PVGIS simulates a long-term mean: it changes only with a new database, so weeks are fine. */
const PV_YIELD_WINDOWS = { freshSeconds: 30 * 86400, staleSeconds: 90 * 86400 };

export function irradianceOf(w: WeatherRecord | null): SolarRecord['irradiance'] {
  if (!w) return null;
  const windows = [
    [10, w.solar_kwh_m2_10min],
    [30, w.solar_kwh_m2_30min],
    [60, w.solar_kwh_m2_60min],
  ] as const;
  const first = windows.find(([, v]) => v !== null);
  if (!first) return null;
  const [minutes, kwh] = first;
  return {
    observed_at: w.observed_at,
    global_w_m2: Math.round((kwh as number) * W_PER_KWH_M2[minutes]),
    window_minutes: minutes,
    energy_kwh_m2: kwh,
    station: w.station?.name ?? null,
    distance_km: w.station?.distance_km ?? null,
    attribution: attributionOf(BRIGHTSKY).text,
  };
}

/** PVGIS's answer for a location it cannot compute: `{"status": 400, "message": "Location over the sea. …"}`. */
const refused = (body: unknown) => {
  const b = body as { outputs?: unknown; status?: unknown; message?: unknown } | null;
  return b?.outputs === undefined && b?.status === 400 && typeof b.message === 'string';
};

/** `solar`: live global irradiance (weather type, DWD via Bright Sky) and the PVGIS yield of 1 kWp. */
export const solar: Adapter<SolarRecord> = async (ctx) => {
  const { city, http } = ctx;
  const lat = city.lat.toFixed(3);
  const lon = city.lon.toFixed(3);
  const [weather, pv] = await Promise.all([
    ctx.lookup(WEATHER, city),
    // PVGIS answers a point it cannot compute (outside its radiation databases, over the sea) with a 400 and a JSON
    // message; a yield is parsed before it is cached.
    ctx.cached(`pvcalc:${lat},${lon}`, PV_YIELD_WINDOWS, async () => {
      const body = await http.json<unknown>('/PVcalc', { query: { lat, lon, ...PV_SYSTEM, outputformat: 'json' }, okStatuses: [400] });
      return refused(body) ? null : parsePvcalc(body);
    }),
  ]);
  if (!pv) return { data: null, status: 'no_data', meta: { reason: 'PVGIS computes no yield for the city point (it refuses the location)' } };
  const irradiance = irradianceOf(weather);
  const meta: Record<string, unknown> = {};
  if (!irradiance) meta.irradiance_reason = 'the weather source gave no solar radiation value for the city (null before 2023 and at night gaps)';
  return {
    data: {
      irradiance,
      pv_yield: { ...pv, peak_power_kwp: PV_SYSTEM.peakpower, api_version: http.baseUrl.split('/').pop() ?? null, attribution: attributionOf(PVGIS).text },
    },
    as_of: irradiance?.observed_at ?? null,
    meta,
  };
};
