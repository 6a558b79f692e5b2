import type { SourceDecl } from '../../core/source.ts';

/** Zensus 2022 grid (Destatis data, Esri Deutschland re-host as a keyless FeatureServer). */
export const ZENSUS_GRID: SourceDecl = {
  id: 'zensus-grid',
  name: 'Zensus 2022 Gitterzellen (Statistische Ämter des Bundes und der Länder)',
  env: 'ZENSUS_GRID',
  baseUrl: 'https://services2.arcgis.com/jUpNdisbWqRpMo35/arcgis/rest/services/Zensus2022_grid_final/FeatureServer',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: '© Statistische Ämter des Bundes und der Länder, 2024; GeoBasis-DE/BKG 2024',
  timeoutMs: 20000,
  // Grid cells of one city extent, paged.
  maxResponseBytes: 16 * 1024 * 1024,
};
