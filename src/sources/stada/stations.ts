import { fold, stripped } from '../../core/fold.ts';
import type { City } from '../../cities/register.ts';
import type { AdapterResult } from '../../core/data-type.ts';
import { quotedInput } from '../../core/problem.ts';
import type { StationList } from '../../core/records/stations.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** StaDa v2 `GET /stations` page: `{offset, limit, total, result: Station[]}`. */
export interface StadaPage {
  offset: number;
  limit: number;
  total: number;
  result: StadaStation[];
}

export interface StadaStation {
  number: number;
  name: string;
  category?: number;
  municipalityCode?: string;
  mailingAddress?: { city?: string; zipcode?: string; street?: string };
  evaNumbers?: { number: number; isMain?: boolean; geographicCoordinates?: { type: string; coordinates: [number, number] } }[];
}

/** One station as kept in the shared national list (compact: it is cached for a month). */
export interface Station {
  eva: string;
  /** Every EVA number of the station (big stations have several, e.g. upper and lower level). */
  evas: string[];
  name: string;
  category: number;
  lat: number | null;
  lon: number | null;
  post_code: string | null;
  /** StaDa's municipalityCode: the AGS of the municipality. */
  ags: string | null;
  /** mailingAddress.city: the match of last resort for answers without municipalityCode. */
  place: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Stations without an EVA number cannot feed the board endpoints, and categories -1 and 0 mean
 * "not in operation" (planned, sold, no train stops): both are left out.
 */
export function parseStation(s: StadaStation): Station | null {
  const evas = Array.isArray(s?.evaNumbers) ? s.evaNumbers.filter((e) => num(e?.number) !== null) : [];
  const main = evas.find((e) => e.isMain) ?? evas[0];
  const category = num(s?.category);
  if (!main || typeof s.name !== 'string' || category === null || category < 1 || category > 7) return null;
  // GeoJSON order: [lon, lat]
  const coords = main.geographicCoordinates?.coordinates;
  const zip = s.mailingAddress?.zipcode;
  return {
    eva: String(main.number),
    evas: evas.map((e) => String(e.number)),
    name: s.name,
    category,
    lat: Array.isArray(coords) ? num(coords[1]) : null,
    lon: Array.isArray(coords) ? num(coords[0]) : null,
    post_code: typeof zip === 'string' && zip.trim() !== '' ? zip.trim() : null,
    ags: typeof s.municipalityCode === 'string' && s.municipalityCode.trim() !== '' ? s.municipalityCode.trim() : null,
    place: typeof s.mailingAddress?.city === 'string' && s.mailingAddress.city.trim() !== '' ? s.mailingAddress.city.trim() : null,
  };
}

export function parseStationPage(body: StadaPage): { stations: Station[]; total: number; received: number } {
  if (!body || !Array.isArray(body.result)) throw new UpstreamError('parse', 'StaDa answer without result[]');
  const stations: Station[] = [];
  for (const s of body.result) {
    const st = parseStation(s);
    if (st) stations.push(st);
  }
  const total = num(body.total) ?? body.result.length;
  return { stations, total, received: body.result.length };
}

/** Umlaut-tolerant key: "Köln", "Koeln" and "Koln" all become "koln". */
export function nameKey(s: string): string {
  return stripped(fold(s));
}

/**
 * Does the address town name the city? Exactly as its name or an alias (after folding umlauts),
 * or as `<name>-<district>`, the way DB addresses stations in a city's districts (`Köln-Kalk`,
 * `Münster-Hiltrup`, `Leverkusen- Schlebusch`). Only the full official name may precede the
 * hyphen: short aliases are the first half of other towns (`Mülheim-Kärlich`, `Offenbach-Hundheim`).
 */
function placeNames(place: string, city: Pick<City, 'name' | 'aliases'>): boolean {
  const key = nameKey(place);
  if ([city.name, ...city.aliases].some((n) => nameKey(n) === key)) return true;
  const name = nameKey(city.name);
  for (let i = place.indexOf('-'); i > 0; i = place.indexOf('-', i + 1)) {
    if (nameKey(place.slice(0, i)) === name) return true;
  }
  return false;
}

/**
 * Does the station belong to the city? By municipalityCode == AGS; only a station whose answer
 * has no municipalityCode at all (older StaDa versions, DB's open files) falls back to its
 * address town, compared with the city's name or aliases (so Frankfurt (Oder) never counts as Frankfurt am Main).
 */
function inCity(s: Station, city: Pick<City, 'ags' | 'name' | 'aliases'>): boolean {
  if (s.ags !== null) return s.ags === city.ags;
  if (s.place === null) return false;
  return placeNames(s.place, city);
}

/** The city's stations, optionally filtered by name, sorted by name. */
export function stationsOfCity(all: readonly Station[], city: Pick<City, 'ags' | 'name' | 'aliases'>, q?: string): Station[] {
  const needle = q ? nameKey(q) : '';
  return all
    .filter((s) => inCity(s, city) && (!needle || nameKey(s.name).includes(needle)))
    .sort((a, b) => a.name.localeCompare(b.name, 'de') || a.eva.localeCompare(b.eva));
}

/**
 * The `stations` answer from a national list, shared by StaDa and its open-data fallback: the
 * city's stations filtered by ?q=, capped by ?limit=, or no_data saying why (`noStation`: why
 * the city has none at all, in the terms of the list's city match).
 */
export function cityStationsAnswer(
  all: readonly Station[],
  city: Pick<City, 'ags' | 'name' | 'aliases'>,
  params: Record<string, unknown>,
  noStation: string,
): AdapterResult<StationList> {
  const q = params.q as string | undefined;
  const matched = stationsOfCity(all, city, q);
  if (matched.length === 0) {
    const reason = q && stationsOfCity(all, city).length > 0 ? `no station name of this city matches${quotedInput(q)}` : noStation;
    return { data: null, status: 'no_data', meta: { reason } };
  }
  const limit = params.limit as number | undefined;
  const shown = limit ? matched.slice(0, limit) : matched;
  return {
    data: shown.map(({ ags: _ags, place: _place, ...s }) => s),
    meta: { total_matching: matched.length, returned: shown.length },
  };
}

const HBF = /\bHbf\b|Hauptbahnhof/i;

/**
 * The station a city's boards show when none is curated: the best StaDa category (1 = the
 * largest hubs), among equals one named "Hbf", then the first by name.
 */
export function mainStation<T extends Pick<Station, 'name' | 'category'>>(stations: readonly T[]): T | null {
  let best: T | null = null;
  for (const s of stations) {
    if (!best || s.category < best.category) {
      best = s;
      continue;
    }
    if (s.category > best.category) continue;
    const hbf = HBF.test(s.name),
      bestHbf = HBF.test(best.name);
    if ((hbf && !bestHbf) || (hbf === bestHbf && s.name.localeCompare(best.name, 'de') < 0)) best = s;
  }
  return best;
}
