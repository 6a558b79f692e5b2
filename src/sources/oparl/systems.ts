/**
 * The OParl systems whose council papers may be passed on: the city states an open licence
 * for its council information system (research/upstreams-stats.md §9; most of the ~130 OParl
 * endpoints state none). `url` is the key of the system URL in the source's `urls` (Leipzig's,
 * the system the fixtures model, is the base URL).
 */
export interface OparlSystem {
  slug: string;
  /** Key in OPARL.urls, or null for the base URL. */
  url: string | null;
  defaultUrl: string;
  /** The licence the city grants, used when the System object states none. */
  license: string;
}

export const OPARL_SYSTEMS: readonly [OparlSystem, ...OparlSystem[]] = [
  { slug: 'leipzig', url: null, defaultUrl: 'https://ratsinformation.leipzig.de/allris_leipzig_public/oparl/system', license: 'CC-BY-4.0' },
  { slug: 'koeln', url: 'koeln', defaultUrl: 'https://buergerinfo.stadt-koeln.de/oparl/system', license: 'dl-de/zero-2-0' },
  { slug: 'duesseldorf', url: 'duesseldorf', defaultUrl: 'https://ris-oparl.itk-rheinland.de/Oparl/system', license: 'dl-de/zero-2-0' },
  { slug: 'dresden', url: 'dresden', defaultUrl: 'https://oparl.dresden.de/system', license: 'dl-de/zero-2-0' },
  { slug: 'magdeburg', url: 'magdeburg', defaultUrl: 'https://ratsinfo.magdeburg.de/oparl/system', license: 'dl-de/zero-2-0' },
  { slug: 'muenster', url: 'muenster', defaultUrl: 'https://oparl.stadt-muenster.de/system', license: 'dl-de/by-2-0' },
  { slug: 'freiburg-im-breisgau', url: 'freiburg', defaultUrl: 'https://ris.freiburg.de/oparl', license: 'dl-de/by-2-0' },
  { slug: 'osnabrueck', url: 'osnabrueck', defaultUrl: 'https://www.osnabrueck.sitzung-online.de/oparl/system', license: 'CC-BY-4.0' },
];

export const OPARL_SYSTEM_BY_SLUG: ReadonlyMap<string, OparlSystem> = new Map(OPARL_SYSTEMS.map((s) => [s.slug, s]));
