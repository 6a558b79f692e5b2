/**
 * Street tree cadastres published as WFS with an open licence, and how each names its fields
 * (research/upstreams-stats.md §12). Other cities publish trees only as files on their portals,
 * several without a clear licence.
 */
export interface TreeWfs {
  slug: string;
  /** Key in TREE_WFS.urls, or null for the base URL. */
  url: string | null;
  defaultUrl: string;
  typeName: string;
  outputFormat: string;
  license: string;
  licenseUrl: string;
  attribution: string;
  fields: {
    species_de: string;
    species_botanical: string | null;
    genus_de: string | null;
    planting_year: string | null;
    height_m: string | null;
    crown_diameter_m: string | null;
    street: string | null;
    district: string | null;
  };
}

export const TREE_WFS_CITIES: readonly [TreeWfs, ...TreeWfs[]] = [
  {
    slug: 'berlin',
    url: null,
    defaultUrl: 'https://gdi.berlin.de/services/wfs/baumbestand',
    typeName: 'baumbestand:strassenbaeume',
    outputFormat: 'application/json',
    license: 'dl-de/zero-2-0',
    licenseUrl: 'https://www.govdata.de/dl-de/zero-2-0',
    attribution: 'Geoportal Berlin / Straßen- und Anlagenbaumbestand',
    fields: {
      species_de: 'art_dtsch',
      species_botanical: 'art_bot',
      genus_de: 'gattung_deutsch',
      planting_year: 'pflanzjahr',
      height_m: 'baumhoehe',
      crown_diameter_m: null,
      street: 'strname',
      district: 'bezirk',
    },
  },
  {
    slug: 'hamburg',
    url: 'hamburg',
    defaultUrl: 'https://geodienste.hamburg.de/HH_WFS_Strassenbaumkataster',
    typeName: 'de.hh.up:strassenbaumkataster',
    outputFormat: 'application/geo+json',
    license: 'dl-de/by-2-0',
    licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
    attribution: 'Freie und Hansestadt Hamburg, Landesbetrieb Geoinformation und Vermessung (LGV)',
    fields: {
      species_de: 'art_deutsch',
      species_botanical: 'art_latein',
      genus_de: 'gattung_deutsch',
      planting_year: 'pflanzjahr',
      height_m: null,
      crown_diameter_m: 'kronendurchmesser',
      street: 'strasse',
      district: 'stadtteil',
    },
  },
  {
    slug: 'kiel',
    url: 'kiel',
    defaultUrl: 'https://ims.kiel.de/geodatenextern/services/Stadtplan/LHKielWmsWfs/MapServer/WFSServer',
    typeName: 'lhkiel:Baeume',
    outputFormat: 'GEOJSON',
    license: 'CC-BY-4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: 'Landeshauptstadt Kiel',
    fields: {
      species_de: 'Baumart',
      species_botanical: 'Baumart__bot._',
      genus_de: null,
      planting_year: null,
      height_m: null,
      crown_diameter_m: 'Kronendurchmesser__m_',
      street: null,
      district: null,
    },
  },
];

export const TREE_WFS_BY_SLUG: ReadonlyMap<string, TreeWfs> = new Map(TREE_WFS_CITIES.map((c) => [c.slug, c]));
