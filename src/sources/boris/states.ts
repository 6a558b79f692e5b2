/**
 * The states' open BORIS WFS services (research/upstreams-stats.md §12; layer, field and filter
 * facts from published service configurations, see test/fixtures/boris/README.md). States
 * missing here have no open machine-readable service, or only a file download, or only values
 * that are not comparable: STATES_WITHOUT says which and why.
 */
export interface BorisState {
  state: string;
  /** Key in BORIS.urls, or null for the base URL (Berlin). */
  url: string | null;
  defaultUrl: string;
  typeNames: string;
  /** GeoJSON (`application/json`) or GML (the AdV services answer GML only). */
  format: 'geojson' | 'gml';
  /** Local element (GML) of one zone; GeoJSON features need none. */
  featureNames?: readonly string[];
  /** Property (GeoJSON) or local element name (GML) of the value in EUR/m². */
  valueField: string;
  /** Usage (Art der Nutzung) field and the codes that count as residential (prefix match). */
  usage?: { field: string; prefixes: readonly string[] };
  /** Development state field and its building-land code. */
  development?: { field: string; codes: readonly string[] };
  /** Reference date field, when one layer mixes several years. */
  dateField?: string;
  /** The reference date of a single-year layer. */
  fixedDate?: string;
  /**
   * How the city's zones are picked: the whole layer (a city-state), a bounding box around
   * the city, or a municipality-key filter (services that refuse bbox).
   */
  area: { mode: 'all' } | { mode: 'bbox' } | { mode: 'ags'; filter: (ags: string) => string; namespaces?: string };
  license: string;
  licenseUrl: string;
  attribution: string;
}

const DL_BY = { license: 'dl-de/by-2-0', licenseUrl: 'https://www.govdata.de/dl-de/by-2-0' };
const DL_ZERO = { license: 'dl-de/zero-2-0', licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0' };
const FES = 'xmlns:fes="http://www.opengis.net/fes/2.0"';
const eq = (ref: string, literal: string) =>
  `<fes:PropertyIsEqualTo><fes:ValueReference>${ref}</fes:ValueReference><fes:Literal>${literal}</fes:Literal></fes:PropertyIsEqualTo>`;
const and = (...clauses: string[]) => `<fes:Filter ${FES}><fes:And>${clauses.join('')}</fes:And></fes:Filter>`;

/** AdV BRM usage codes: W… residential (W, WA, WR, WS, WB), MI mixed. */
const RESIDENTIAL = ['W', 'MI'] as const;
const ADV = {
  format: 'gml',
  featureNames: ['BR_BodenrichtwertZonal'],
  typeNames: 'boris:BR_BodenrichtwertZonal',
  valueField: 'bodenrichtwert',
  usage: { field: 'art', prefixes: RESIDENTIAL },
  development: { field: 'entwicklungszustand', codes: ['B'] },
  dateField: 'stichtag',
  area: { mode: 'bbox' },
} as const;

export const BORIS_STATES: readonly [BorisState, ...BorisState[]] = [
  {
    state: 'BE',
    url: null,
    defaultUrl: 'https://gdi.berlin.de/services/wfs/brw2026',
    typeNames: 'brw2026:brw2026_vector',
    format: 'geojson',
    valueField: 'brw',
    usage: { field: 'nutzung', prefixes: ['W', 'M'] },
    fixedDate: '2026-01-01',
    // Berlin is a city-state: every zone of the layer lies in the city.
    area: { mode: 'all' },
    ...DL_ZERO,
    attribution: 'Geoportal Berlin / Bodenrichtwerte 2026',
  },
  {
    state: 'HE',
    url: 'he',
    defaultUrl: 'https://www.gds.hessen.de/wfs2/boris/cgi-bin/brw/2024/wfs',
    ...ADV,
    fixedDate: '2024-01-01',
    ...DL_ZERO,
    attribution: 'Hessische Verwaltung für Bodenmanagement und Geoinformation (HVBG), BORIS Hessen',
  },
  {
    state: 'NI',
    url: 'ni',
    defaultUrl: 'https://opendata.lgln.niedersachsen.de/doorman/noauth/boris_wfs',
    ...ADV,
    ...DL_BY,
    attribution: 'Landesamt für Geoinformation und Landesvermessung Niedersachsen (LGLN), BORIS.NI',
  },
  {
    state: 'HB',
    url: 'hb',
    defaultUrl: 'https://opendata.lgln.niedersachsen.de/doorman/noauth/borishb_2026_wfs',
    ...ADV,
    ...DL_BY,
    attribution: 'Landesamt GeoInformation Bremen, BORIS Bremen',
  },
  {
    state: 'BB',
    url: 'bb',
    defaultUrl: 'https://isk.geobasis-bb.de/ows/boris_wfs',
    typeNames: 'br:BR_Bodenrichtwert',
    format: 'gml',
    featureNames: ['BR_Bodenrichtwert'],
    valueField: 'bodenrichtwert',
    // The Brandenburg layer codes the development state as 1000 (building land) and refuses bbox.
    development: { field: 'entwicklungszustand', codes: ['1000'] },
    dateField: 'stichtag',
    area: {
      mode: 'ags',
      filter: (ags) =>
        and(
          eq('br:gemeinde/adv:AX_Gemeindekennzeichen/adv:kreis', ags.slice(3, 5)),
          eq('br:gemeinde/adv:AX_Gemeindekennzeichen/adv:gemeinde', ags.slice(5, 8)),
          eq('br:entwicklungszustand', '1000'),
        ),
      namespaces: 'xmlns(br,http://www.adv-online.de/namespaces/adv/br/3.0),xmlns(adv,http://www.adv-online.de/namespaces/adv/gid/7.1)',
    },
    ...DL_BY,
    attribution: 'GeoBasis-DE/LGB (Land Brandenburg), BORIS Brandenburg',
  },
  {
    state: 'TH',
    url: 'th',
    defaultUrl: 'https://www.geoproxy.geoportal-th.de/geoproxy/services/boris/vBORIS_simple_wfs',
    typeNames: 'boris:bodenrichtwertzone',
    format: 'gml',
    featureNames: ['bodenrichtwertzone'],
    valueField: 'BODENRICHTWERT',
    development: { field: 'ENTWICKLUNGSZUSTAND', codes: ['1000'] },
    dateField: 'STICHTAG',
    area: { mode: 'ags', filter: (ags) => and(eq('GEMEINDE', ags), eq('ENTWICKLUNGSZUSTAND', '1000')) },
    ...DL_BY,
    attribution: 'Thüringer Landesamt für Bodenmanagement und Geoinformation (TLBG), vBORIS',
  },
  {
    state: 'MV',
    url: 'mv',
    defaultUrl: 'https://www.geodaten-mv.de/dienste/bodenrichtwerte_wfs',
    // The service splits zones into layers by usage: the residential and the mixed layer are asked for.
    typeNames: 'boris:wohnbauflaeche,boris:gemischte_bauflaeche',
    format: 'gml',
    featureNames: ['wohnbauflaeche', 'gemischte_bauflaeche'],
    valueField: 'brwkon',
    fixedDate: '2024-01-01',
    area: { mode: 'bbox' },
    license: 'CC-BY-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: 'Gutachterausschüsse für Grundstückswerte in Mecklenburg-Vorpommern (GeoPortal.MV)',
  },
];

export const BORIS_BY_STATE: ReadonlyMap<string, BorisState> = new Map(BORIS_STATES.map((s) => [s.state, s]));

const NO_OPEN_SERVICE = 'the state publishes no open machine-readable BORIS service';

/** Why a state answers with the nationwide building-land price table only. */
export const STATES_WITHOUT: Readonly<Record<string, string>> = {
  BY: NO_OPEN_SERVICE,
  BW: NO_OPEN_SERVICE,
  SN: NO_OPEN_SERVICE,
  RP: NO_OPEN_SERVICE,
  SL: NO_OPEN_SERVICE,
  SH: NO_OPEN_SERVICE,
  HH: 'Hamburg publishes only normalised standard land values (converted to a standard plot), not comparable with the other states',
  NW: 'NRW publishes its standard land values only as a statewide shapefile download, which this service does not read',
  ST: 'Sachsen-Anhalt publishes its standard land values only as a shapefile download, which this service does not read',
};
