import type { SourceDecl } from '../../core/source.ts';

/**
 * Die Bundeswahlleiterin: open data of the latest federal election. Both files are national
 * (one download each, cached for days); their URLs change with every election, hence env vars.
 */
export const BUNDESWAHLLEITERIN: SourceDecl = {
  id: 'bundeswahlleiterin',
  name: 'Die Bundeswahlleiterin',
  env: 'BUNDESWAHLLEITERIN',
  baseUrl: 'https://www.bundeswahlleiterin.de',
  urls: {
    results: {
      env: 'BUNDESWAHLLEITERIN_RESULTS_URL',
      default: 'https://www.bundeswahlleiterin.de/bundestagswahlen/2025/ergebnisse/opendata/btw25/csv/kerg2.csv',
      description: 'Results per constituency of the latest federal election, long format (kerg2.csv)',
    },
    assignment: {
      env: 'BUNDESWAHLLEITERIN_ASSIGNMENT_URL',
      default: 'https://www.bundeswahlleiterin.de/dam/jcr/aa868597-0e60-476c-bd2b-279c1e9a142a/btw25_wkr_gemeinden_20241130_utf8.csv',
      description: 'Official assignment of municipalities to constituencies of that election (wkr_gemeinden CSV)',
    },
  },
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: '© Die Bundeswahlleiterin, Wiesbaden; Statistische Ämter des Bundes und der Länder',
  modified: true,
  timeoutMs: 30000,
  // kerg2.csv of a federal election is about 5 MB, the assignment about 2 MB.
  maxResponseBytes: 32 * 1024 * 1024,
};
