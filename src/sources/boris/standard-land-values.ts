import type { City } from '../../cities/register.ts';
import type { CacheWindows } from '../../core/data-type.ts';
import type { StandardLandValues } from '../../core/records/land.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { BORIS_BY_STATE, STATES_WITHOUT, type BorisState } from './states.ts';
import { parseGeoJsonPage, parseGmlPage, type Zone } from './zones.ts';

/** Zones per GetFeature request; GML pages carry polygons, so pages stay moderate. */
export const BORIS_PAGE = 500;
/** Zones read per city at most (a large city has a few thousand); beyond it the summary says `truncated`. */
export const BORIS_MAX_ZONES = 5000;
/** Standard land values are fixed once a year (or every other year). */
export const BORIS_WINDOWS: CacheWindows = { freshSeconds: 7 * 86_400, staleSeconds: 90 * 86_400 };

export interface BorisPart {
  data: StandardLandValues;
  /** Why there is no summary (or what to keep in mind about it). */
  note: string | null;
}

/** Half side of the box: the radius of a circle with the city's area, within sane bounds. */
function radiusKm(city: City): number {
  const r = city.area_km2 ? Math.sqrt(city.area_km2 / Math.PI) : 10;
  return Math.min(25, Math.max(3, r));
}

/** WFS 2.0 bbox in EPSG:4326 written as URN, whose axis order is latitude, longitude. */
function bbox(city: City): string {
  const r = radiusKm(city);
  const dLat = r / 111.32;
  const dLon = r / (111.32 * Math.cos((city.lat * Math.PI) / 180));
  const f = (n: number) => n.toFixed(5);
  return `${f(city.lat - dLat)},${f(city.lon - dLon)},${f(city.lat + dLat)},${f(city.lon + dLon)},urn:ogc:def:crs:EPSG::4326`;
}

function areaText(st: BorisState, city: City): string {
  switch (st.area.mode) {
    case 'all':
      return 'the whole layer (a city-state: every zone lies in the city)';
    case 'ags':
      return `zones of municipality ${city.ags} (filter on the municipality key)`;
    case 'bbox':
      return (
        `zones meeting a box of ±${radiusKm(city).toFixed(1)} km around the city centre (radius of a circle of the city's area); ` +
        'the service carries no municipality key, so zones of neighbouring municipalities inside the box count'
      );
  }
}

function selectedText(st: BorisState): string {
  const parts = [];
  if (st.usage) parts.push(`${st.usage.field} beginning with ${st.usage.prefixes.join(' or ')}`);
  else if (st.format === 'gml' && st.featureNames && st.featureNames.length > 1) parts.push(`layers ${st.typeNames}`);
  else parts.push('all usages (the service documents no usage field)');
  if (st.development) parts.push(`${st.development.field} = ${st.development.codes.join('/')} (building land)`);
  return parts.join('; ');
}

function residential(z: Zone, st: BorisState): boolean {
  if (st.usage) {
    const u = (z.usage ?? '').toUpperCase();
    if (!st.usage.prefixes.some((p) => u.startsWith(p))) return false;
  }
  return !st.development || st.development.codes.includes(z.development ?? '');
}

async function readZones(http: SourceHttp, st: BorisState, city: City): Promise<{ zones: Zone[]; read: number; truncated: boolean }> {
  const base = st.url ? http.url(st.url) : http.baseUrl;
  const query: Record<string, string | number> = { service: 'WFS', version: '2.0.0', request: 'GetFeature', typeNames: st.typeNames, count: BORIS_PAGE };
  if (st.format === 'geojson') query.outputFormat = 'application/json';
  if (st.area.mode === 'bbox') query.bbox = bbox(city);
  if (st.area.mode === 'ags') {
    query.filter = st.area.filter(city.ags);
    if (st.area.namespaces) query.namespaces = st.area.namespaces;
  }
  const zones: Zone[] = [];
  let read = 0;
  for (;;) {
    const body = await http.text('', { base, query: { ...query, startIndex: read } });
    const page = st.format === 'geojson' ? parseGeoJsonPage(body, st) : parseGmlPage(body, st);
    zones.push(...page.zones);
    read += page.features;
    const more = page.matched !== null ? read < page.matched : page.features === BORIS_PAGE;
    if (!more || page.features === 0) return { zones, read, truncated: false };
    if (read >= BORIS_MAX_ZONES) return { zones, read, truncated: true };
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Median and range of the city's residential standard land values from its state's open BORIS
 * service; a state without one gives null and says why. Layers mixing several reference dates
 * are summarised for the newest date only.
 */
export async function standardLandValues(http: SourceHttp, city: City): Promise<BorisPart> {
  const st = BORIS_BY_STATE.get(city.state);
  if (!st) {
    const why = STATES_WITHOUT[city.state] ?? 'no open BORIS service is known for the state';
    return { data: null, note: `No standard land values for ${city.state_name}: ${why}. The building-land price table is the comparable figure.` };
  }
  const { zones, read, truncated } = await readZones(http, st, city);
  const kept = zones.filter((z) => residential(z, st));
  const newest = kept.reduce<string | null>((d, z) => (z.date && (!d || z.date > d) ? z.date : d), null);
  const current = newest ? kept.filter((z) => z.date === newest) : kept;
  const date = newest ?? st.fixedDate ?? null;
  if (current.length === 0) {
    return { data: null, note: `The BORIS service of ${st.state} lists no residential building-land zone for the city (${read} zones read).` };
  }
  const values = current.map((z) => z.value).sort((a, b) => a - b);
  return {
    data: {
      state: st.state,
      reference_date: date,
      year: date ? Number(date.slice(0, 4)) : null,
      median_eur_m2: round(median(values)),
      min_eur_m2: values[0] as number,
      max_eur_m2: values[values.length - 1] as number,
      zones: values.length,
      zones_read: read,
      truncated,
      zones_selected: selectedText(st),
      area: areaText(st, city),
      provenance: { source: `BORIS ${st.state}`, license: st.license, license_url: st.licenseUrl, attribution: st.attribution },
    },
    note: truncated ? `The service holds more zones than the ${BORIS_MAX_ZONES} read; the summary covers those read.` : null,
  };
}
