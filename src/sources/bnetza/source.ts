import type { SourceDecl } from '../../core/source.ts';

/**
 * Bundesnetzagentur Ladesäulenregister: a monthly bulk CSV whose file name carries the edition
 * date (older editions are deleted), so the landing page is read for the current name.
 */
export const BNETZA: SourceDecl = {
  id: 'bnetza-ladesaeulen',
  name: 'Bundesnetzagentur Ladesäulenregister',
  env: 'BNETZA',
  baseUrl: 'https://data.bundesnetzagentur.de/Bundesnetzagentur/DE/Fachthemen/ElektrizitaetundGas/E-Mobilitaet',
  urls: {
    page: {
      env: 'BNETZA_PAGE_URL',
      default: 'https://www.bundesnetzagentur.de/DE/Fachthemen/ElektrizitaetundGas/E-Mobilitaet/Ladesaeulenkarte/start.html',
      description: 'Landing page of the Ladesäulenregister that links the current dated CSV',
    },
  },
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Bundesnetzagentur.de',
  // The whole register is ~55 MB and is fetched only by the weekly precompute.
  timeoutMs: 180_000,
  maxResponseBytes: 200 * 1024 * 1024,
};
