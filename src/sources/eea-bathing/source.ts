import type { SourceDecl } from '../../core/source.ts';

/**
 * EEA DiscoMap ArcGIS services of the Bathing Water Directive (2006/7/EC): the yearly
 * classification of every EU bathing site. The service of each season carries the year in its
 * name (BathingWater_Dyna_WM_2025), so it is looked up in the service directory.
 */
export const EEA_BATHING: SourceDecl = {
  id: 'eea-bathing-water',
  name: 'European Environment Agency (Bathing Water Directive)',
  env: 'EEA_BATHING',
  baseUrl: 'https://water.discomap.eea.europa.eu/arcgis/rest/services/BathingWater',
  license: 'CC BY 4.0',
  licenseUrl: 'https://www.eea.europa.eu/en/legal-notice',
  tier: 'A',
  attribution: 'European Environment Agency (EEA), bathing water quality under Directive 2006/7/EC',
  urls: {
    fallbackLayer: {
      env: 'EEA_BATHING_FALLBACK_LAYER_URL',
      default: 'https://water.discomap.eea.europa.eu/arcgis/rest/services/BathingWater/BathingWater_Dyna_WM_2025/MapServer/3',
      description: 'Bathing water layer queried when the season service cannot be found in the service directory',
    },
  },
  timeoutMs: 15000,
  // 2,000 records without geometry are about 1 MB.
  maxResponseBytes: 8 * 1024 * 1024,
};
