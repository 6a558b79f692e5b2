import { distanceKm } from '../../cities/register.ts';
import type { WaterLevelRecord } from '../../core/records/water.ts';
import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/**
 * One time series, as in stations/{id}/W.json or a station's `timeseries[]`. A gauge without a current value
 * comes without `currentMeasurement`; one that has it carries its time and value.
 */
const SeriesShape = z.looseObject({
  shortname: optText,
  longname: optText,
  unit: optText,
  currentMeasurement: z
    .looseObject({
      timestamp: z.string().refine((t) => Number.isFinite(Date.parse(t)), 'not a time'),
      value: z.number(),
      stateMnwMhw: optText,
      stateNswHsw: optText,
      trend: optNumber,
    })
    .nullish(),
  gaugeZero: z.looseObject({ unit: optText, value: optNumber, validFrom: optText }).nullish(),
  characteristicValues: z.array(z.looseObject({ shortname: optText, unit: optText, value: optNumber })).nullish(),
});
export type PegelTimeseries = z.output<typeof SeriesShape>;

/** One station of stations.json (timeseries only when asked for with includeTimeseries); the 2014 recording has stations without coordinates. */
const StationShape = z.looseObject({
  uuid: z.string(),
  number: optText,
  shortname: optText,
  longname: optText,
  km: optNumber,
  agency: optText,
  longitude: optNumber,
  latitude: optNumber,
  water: z.looseObject({ shortname: optText, longname: optText }).nullish(),
  timeseries: z.array(SeriesShape).nullish(),
});
export type PegelStation = z.output<typeof StationShape>;
const STATIONS = z.array(StationShape);

export function parseStations(body: unknown): PegelStation[] {
  return shaped(STATIONS, body, 'PEGELONLINE stations.json');
}

/** stations/{id}/W.json body. */
export function parseSeries(body: Buffer): PegelTimeseries {
  let ts: unknown;
  try {
    ts = JSON.parse(body.toString('utf8'));
  } catch {
    throw new UpstreamError('parse', 'PEGELONLINE time series is not JSON');
  }
  return shaped(SeriesShape, ts, 'PEGELONLINE W.json');
}

/** The water level series of a station, if it came with the station (includeTimeseries). */
export function embeddedW(station: PegelStation): PegelTimeseries | null | undefined {
  if (!Array.isArray(station.timeseries)) return undefined;
  return station.timeseries.find((t) => t.shortname === 'W') ?? null;
}

const STATES = new Set(['low', 'normal', 'high', 'unknown', 'commented', 'out-dated']);
const state = (s: unknown) => (typeof s === 'string' && STATES.has(s) ? (s as WaterLevelRecord['state_mnw_mhw']) : null);
const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A gauge with its W series as one record; distance from the given point. */
export function toWaterLevel(station: PegelStation, w: PegelTimeseries, lat: number, lon: number): WaterLevelRecord {
  const m = w.currentMeasurement ?? null;
  const value = finite(m?.value);
  const zero = w.gaugeZero && w.gaugeZero.unit?.toLowerCase().includes('nhn') ? finite(w.gaugeZero.value) : null;
  const cv = (name: string) => finite(w.characteristicValues?.find((c) => c.shortname === name && (c.unit ?? 'cm') === 'cm')?.value);
  const sLat = finite(station.latitude);
  const sLon = finite(station.longitude);
  const measuredAt = m ? toBerlinIso(m.timestamp) : null;
  return {
    uuid: station.uuid ?? null,
    number: station.number ?? null,
    name: station.longname ?? station.shortname ?? null,
    water: station.water?.longname ?? station.water?.shortname ?? null,
    river_km: finite(station.km),
    agency: station.agency ?? null,
    lat: sLat,
    lon: sLon,
    distance_km: sLat !== null && sLon !== null ? Math.round(distanceKm(lat, lon, sLat, sLon) * 10) / 10 : null,
    value_cm: value,
    measured_at: measuredAt,
    state_mnw_mhw: state(m?.stateMnwMhw),
    state_nsw_hsw: state(m?.stateNswHsw),
    trend: m?.trend === -1 || m?.trend === 0 || m?.trend === 1 ? m.trend : null,
    gauge_zero_m: zero,
    gauge_zero_valid_from: typeof w.gaugeZero?.validFrom === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(w.gaugeZero.validFrom) ? w.gaugeZero.validFrom : null,
    level_nhn_m: zero !== null && value !== null ? Math.round((zero + value / 100) * 1000) / 1000 : null,
    mnw_cm: cv('MNW'),
    mw_cm: cv('MW'),
    mhw_cm: cv('MHW'),
    hsw_cm: cv('HSW'),
  };
}
