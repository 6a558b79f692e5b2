import type { SourceDecl } from '../core/source.ts';

/** The terms of every file read from DWD's open data server: GeoNutzV, with DWD's required source note (values are converted, so modified). */
export const DWD_OPEN_DATA_TERMS: Pick<SourceDecl, 'license' | 'licenseUrl' | 'tier' | 'attribution' | 'modified'> = {
  license: 'GeoNutzV',
  licenseUrl: 'https://www.dwd.de/DE/service/rechtliche_hinweise/rechtliche_hinweise_node.html',
  tier: 'A',
  attribution: 'Datenbasis: Deutscher Wetterdienst, eigene Elemente ergänzt',
  modified: true,
};
