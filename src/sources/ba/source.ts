import type { SourceDecl } from '../../core/source.ts';

/** Statistik der Bundesagentur für Arbeit: keyless table API (bids-api) plus its region list. */
export const BA_STATISTIK: SourceDecl = {
  id: 'ba-statistik',
  name: 'Statistik der Bundesagentur für Arbeit',
  env: 'BA_STATISTIK',
  baseUrl: 'https://statistik-dr.arbeitsagentur.de/bifrontend/bids-api',
  urls: {
    kreise: {
      env: 'BA_STATISTIK_KREISE_URL',
      default: 'https://statistik.arbeitsagentur.de/Auswahl/Layout/Statistiktabellen/JS/DR-LZR-persistListenfelderJSON.js',
      description: 'Region list of the BA statistics tables (maps Kreis keys to the names the table API expects)',
    },
  },
  // The BA asks for a source credit and publishes no formal open licence.
  license: 'Statistik der BA (source credit required)',
  licenseUrl: 'https://statistik.arbeitsagentur.de/DE/Statischer-Content/Servicebereich-Navigation/Nutzungsbedingungen.html',
  // No open licence: tier C.
  tier: 'C',
  attribution: 'Statistik der Bundesagentur für Arbeit',
  timeoutMs: 15000,
  // The BA lists (a JS file of list fields, table answers) are a few MB.
  maxResponseBytes: 16 * 1024 * 1024,
};
