import type { SourceDecl } from '../../core/source.ts';

/**
 * Unfallatlas of the statistical offices: yearly point files of police-recorded accidents with
 * personal injury, published as ZIPs on the NRW open geodata portal. Read by a yearly job only.
 */
export const UNFALLATLAS: SourceDecl = {
  id: 'unfallatlas',
  name: 'Unfallatlas (Statistische Ämter des Bundes und der Länder)',
  env: 'UNFALLATLAS',
  baseUrl: 'https://www.opengeodata.nrw.de/produkte/transport_verkehr/unfallatlas',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: '© Statistische Ämter des Bundes und der Länder, Unfallatlas',
  modified: true,
  timeoutMs: 300_000,
  // A year's ZIP is some tens of MB.
  maxResponseBytes: 200 * 1024 * 1024,
};
