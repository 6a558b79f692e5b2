import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { PollenUvRecord } from '../../core/records/pollen.ts';
import { toBerlinIso } from '../../core/time.ts';
import { POLLEN_AREA_BY_CITY } from './partregions.ts';
import { checkPollenFile, parsePollen } from './pollen.ts';
import { checkUvFile, parseUv } from './uv.ts';

/** Both files are issued once a day; an hour fresh catches the late-morning issue soon enough. */
const NATIONAL_FILE = { freshSeconds: 3600, staleSeconds: 86400 };

const pollenFile = (ctx: FetchContext) => ctx.cached('s31fg', NATIONAL_FILE, async () => checkPollenFile(await ctx.http.json<unknown>('/s31fg.json')));
const uvFile = (ctx: FetchContext) => ctx.cached('uvi', NATIONAL_FILE, async () => checkUvFile(await ctx.http.json<unknown>('/uvi.json')));

/** `pollen-uv`: the pollen forecast of the city's DWD partregion and the UV forecast of its (or the nearest lowland) UV city. */
export const pollenUv: Adapter<PollenUvRecord> = async (ctx) => {
  const { city, now } = ctx;
  const area = POLLEN_AREA_BY_CITY[city.slug];
  if (!area) return { data: null, status: 'no_data', meta: { reason: 'no DWD pollen partregion is mapped for this city' } };
  const [pollenBody, uvBody] = await Promise.all([pollenFile(ctx), uvFile(ctx)]);
  const pollen = parsePollen(pollenBody, area.region_id, area.partregion_id);
  if (!pollen) {
    return {
      data: null,
      status: 'no_data',
      meta: { reason: `the DWD pollen file lists no ${area.partregion_id === -1 ? `region ${area.region_id}` : `partregion ${area.partregion_id}`}` },
    };
  }
  const uv = parseUv(uvBody, city.name, city.lat, city.lon);
  const currentDay = toBerlinIso(now).slice(0, 10);
  const stale = pollen.issue_date !== null && pollen.issue_date < currentDay;
  const todayValues = pollen.types.map((t) => t.today.level_value).filter((v) => v !== null);
  const meta: Record<string, unknown> = {};
  if (stale) meta.stale_reason = `DWD has not issued a pollen forecast since ${pollen.issue_date}; "today" describes that day`;
  if (!uv) meta.uv_reason = 'the DWD UV file names no UV city for this area';
  return {
    data: {
      region: pollen.region,
      pollen_issued_at: pollen.issued_at,
      pollen_next_update_at: pollen.next_update_at,
      pollen_today_date: pollen.issue_date,
      pollen_stale: stale,
      pollen_max_today: todayValues.length ? Math.max(...todayValues) : null,
      pollen: pollen.types,
      uv,
    },
    as_of: pollen.issued_at,
    meta,
  };
};

/** Compare view: the two scalars cities are compared on (pollen level and UV index of the day). */
export function pollenUvSummary(data: unknown) {
  const d = data as PollenUvRecord;
  return {
    partregion: d.region.partregion_name ?? d.region.region_name,
    pollen_max_today: d.pollen_max_today,
    pollen_stale: d.pollen_stale,
    uv_today: d.uv?.today ?? null,
    uv_station: d.uv?.station ?? null,
  };
}
