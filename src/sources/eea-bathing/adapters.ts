import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { BathingWaterRecord } from '../../core/records/bathing.ts';
import { distanceKm } from '../../cities/register.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { classificationLayer, newestSeasonService, queryPage, type FolderBody, type LayersBody, type QueryBody } from './parse.ts';

export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 50;
/** The services' maxRecordCount; pages are asked for in this size and followed while exceededTransferLimit. */
const PAGE = 2000;
/** A box of 50 km holds a few hundred sites at most; more pages than this means the filter failed. */
const MAX_PAGES = 20;
const DAY = { freshSeconds: 86400, staleSeconds: 7 * 86400 };

const QUALITY = ['Excellent', 'Good', 'Sufficient', 'Poor', 'Not classified'] as const;
const QUALITY_DE: Record<(typeof QUALITY)[number], string> = {
  Excellent: 'ausgezeichnet',
  Good: 'gut',
  Sufficient: 'ausreichend',
  Poor: 'mangelhaft',
  'Not classified': 'nicht eingestuft',
};
type Quality = (typeof QUALITY)[number];

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** Season service and layer, found once a day instead of hard-coding the year in the URL. */
function discoveredLayer(ctx: FetchContext) {
  return ctx.cached('season-layer', DAY, async () => {
    const service = newestSeasonService(await ctx.http.json<FolderBody>('', { query: { f: 'json' } }));
    const path = `/${service.name.split('/').pop() ?? ''}/MapServer`;
    const layer = classificationLayer(await ctx.http.json<LayersBody>(`${path}/layers`, { query: { f: 'json' } }));
    return { url: `${ctx.http.baseUrl}${path}/${layer}`, season: service.season as number | null, discovered: true };
  });
}

/**
 * The layer to query: the discovered one; when the directory cannot be read or lists no season
 * service, the configured fallback layer, so a directory outage does not take the sites down.
 */
async function seasonLayer(ctx: FetchContext): Promise<{ url: string; season: number | null; discovered: boolean }> {
  try {
    return await discoveredLayer(ctx);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    const url = ctx.http.url('fallbackLayer');
    const year = /_(\d{4})\/MapServer/.exec(url);
    return { url, season: year ? Number(year[1]) : null, discovered: false };
  }
}

function toSite(a: Record<string, unknown>, lat: number, lon: number): BathingWaterRecord | null {
  const sLat = num(a.latitude);
  const sLon = num(a.longitude);
  if (sLat === null || sLon === null) return null;
  const quality =
    QUALITY.find(
      (q) =>
        q.toLowerCase() ===
        String(a.qualityStatus ?? '')
          .trim()
          .toLowerCase(),
    ) ?? null;
  return {
    id: str(a.bathingWaterIdentifier),
    name: str(a.bathingWaterName),
    water_category: str(a.bwWaterCategory),
    quality: quality as Quality | null,
    quality_de: quality ? QUALITY_DE[quality] : null,
    quality_raw: str(a.qualityStatus),
    profile_url: str(a.bwProfileLink),
    lat: sLat,
    lon: sLon,
    distance_km: Math.round(distanceKm(lat, lon, sLat, sLon) * 10) / 10,
  };
}

/** `bathing-water`: EEA classification of the bathing sites within the radius, nearest first. */
export const bathingSites: Adapter<BathingWaterRecord[]> = async (ctx) => {
  const { city, params } = ctx;
  const radius = Math.min(MAX_RADIUS_KM, Number(params.radius_km ?? DEFAULT_RADIUS_KM));
  const { url, season, discovered } = await seasonLayer(ctx);
  const dLat = radius / 111.32;
  const dLon = radius / (111.32 * Math.cos((city.lat * Math.PI) / 180));
  const where =
    `countryCode='DE' AND latitude BETWEEN ${(city.lat - dLat).toFixed(4)} AND ${(city.lat + dLat).toFixed(4)} ` +
    `AND longitude BETWEEN ${(city.lon - dLon).toFixed(4)} AND ${(city.lon + dLon).toFixed(4)}`;
  const rows: Record<string, unknown>[] = [];
  for (let page = 0; ; page++) {
    if (page >= MAX_PAGES) throw new UpstreamError('parse', `EEA query still paging after ${MAX_PAGES} pages`);
    const body = await ctx.http.json<QueryBody>('/query', {
      base: url,
      query: {
        where,
        outFields: 'bathingWaterIdentifier,bathingWaterName,bwWaterCategory,qualityStatus,bwProfileLink,latitude,longitude',
        returnGeometry: false,
        orderByFields: 'bathingWaterIdentifier',
        resultOffset: rows.length,
        resultRecordCount: PAGE,
        f: 'json',
      },
    });
    const { rows: got, more } = queryPage(body);
    rows.push(...got);
    if (!more || got.length === 0) break;
  }
  const sites = rows
    .map((a) => toSite(a, city.lat, city.lon))
    .filter((s): s is BathingWaterRecord => s !== null && (s.distance_km ?? Infinity) <= radius)
    .sort((a, b) => (a.distance_km ?? 0) - (b.distance_km ?? 0));
  const meta = { season, radius_km: radius, layer_discovered: discovered };
  if (sites.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: `no EU bathing site within ${radius} km` } };
  return { data: sites, meta };
};
