import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { FireDangerRecord } from '../../core/records/fire.ts';
import { toBerlinIso } from '../../core/time.ts';
import { latestRun, nearestFireStation, parseFireStations, unpack, type FireRun, type FireStation } from './parse.ts';
import { GRASSLAND_DIR, GRASSLAND_PREFIX, GRASSLAND_VERSION, WOODLAND_DIR, WOODLAND_PREFIX, WOODLAND_VERSION } from './source.ts';

/** Nearest station at most this far away; farther, the index says nothing about the city. */
export const FIRE_MAX_KM = 50;
/** A run older than this is not current: a day plus a margin for the daily ~04:14 UTC run. */
export const FIRE_MAX_AGE_HOURS = 26;

export const LEVEL_LABELS = ['sehr geringe Gefahr', 'geringe Gefahr', 'mittlere Gefahr', 'hohe Gefahr', 'sehr hohe Gefahr'] as const;
export const LEVEL_LABELS_EN = ['very low', 'low', 'moderate', 'high', 'very high'] as const;

/** The station list changes rarely: cached for a day, shared by every city. */
function stations(ctx: FetchContext): Promise<FireStation[]> {
  return ctx.cached('woodland-stations', { freshSeconds: 86400, staleSeconds: 7 * 86400 }, async () =>
    parseFireStations(await ctx.http.text(`${WOODLAND_DIR}/${WOODLAND_PREFIX}_${WOODLAND_VERSION}_stations_list.txt`, { encoding: 'latin1' })),
  );
}

async function stationRun(ctx: FetchContext, dir: string, prefix: string, version: string, id: string, col: 'wbi' | 'glfi'): Promise<FireRun | null> {
  const res = await ctx.http.request(`${dir}/${prefix}_${id}_${version}.csv.gz`, { okStatuses: [404] });
  // 404: the station has no file for this index (not every station computes both).
  if (res.status === 404) return null;
  return latestRun(unpack(res.body), col);
}

function addDays(isoDate: string, n: number): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

function indexView(name: 'WBI' | 'GLFI', run: FireRun | null, today: string) {
  if (!run) return null;
  const runDay = run.run_at.slice(0, 10);
  const days = run.levels.map((level, i) => ({
    date: addDays(runDay, i),
    day_offset: i,
    level,
    label: level === null ? null : (LEVEL_LABELS[level - 1] ?? null),
    label_en: level === null ? null : (LEVEL_LABELS_EN[level - 1] ?? null),
  }));
  return { index: name, today: days.find((d) => d.date === today) ?? null, days };
}

/** `fire-danger`: WBI and GLFI forecasts of the nearest DWD station, only while they are current. */
export const fireDanger: Adapter<FireDangerRecord> = async (ctx) => {
  const { city, now } = ctx;
  const station = nearestFireStation(await stations(ctx), city.lat, city.lon);
  if (!station || station.distance_km > FIRE_MAX_KM)
    return { data: null, status: 'no_data', meta: { reason: `no DWD fire danger station within ${FIRE_MAX_KM} km` } };
  const [woodland, grassland] = await Promise.all([
    stationRun(ctx, WOODLAND_DIR, WOODLAND_PREFIX, WOODLAND_VERSION, station.id, 'wbi'),
    stationRun(ctx, GRASSLAND_DIR, GRASSLAND_PREFIX, GRASSLAND_VERSION, station.id, 'glfi'),
  ]);
  const runs = [woodland, grassland].filter((r): r is FireRun => r !== null);
  const stationMeta = { station: station.name, distance_km: station.distance_km };
  if (runs.length === 0) return { data: null, status: 'no_data', meta: { ...stationMeta, reason: 'the DWD station has no fire danger forecast file' } };
  const latest = runs.reduce((a, b) => (Date.parse(b.run_at) > Date.parse(a.run_at) ? b : a));
  const ageHours = (now.getTime() - Date.parse(latest.run_at)) / 3600_000;
  if (ageHours > FIRE_MAX_AGE_HOURS) {
    return {
      data: null,
      status: 'no_data',
      meta: {
        ...stationMeta,
        reason: `the latest DWD forecast run is from ${latest.run_at}, older than a day: outside the fire season (March to October) DWD computes no new forecasts`,
        last_run_at: latest.run_at,
      },
    };
  }
  const today = toBerlinIso(now).slice(0, 10);
  // A run of its own that is older than the other index's is not current either.
  const current = (r: FireRun | null) => (r && (now.getTime() - Date.parse(r.run_at)) / 3600_000 <= FIRE_MAX_AGE_HOURS ? r : null);
  const wbi = indexView('WBI', current(woodland), today);
  const glfi = indexView('GLFI', current(grassland), today);
  const todays = [wbi?.today?.level, glfi?.today?.level].filter((l): l is number => typeof l === 'number');
  return {
    data: {
      station: {
        id: station.id,
        name: station.name,
        state: station.state,
        lat: station.lat,
        lon: station.lon,
        height_m: station.height_m,
        distance_km: station.distance_km,
      },
      run_at: latest.run_at,
      level_today: todays.length ? Math.max(...todays) : null,
      woodland: wbi,
      grassland: glfi,
    },
    as_of: latest.run_at,
  };
};
