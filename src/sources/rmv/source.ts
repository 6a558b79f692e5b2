import type { SourceDecl } from '../../core/source.ts';

/** RMV HAFAS ReST API ("HAPI"), free access id by registration. */
export const RMV: SourceDecl = {
  id: 'rmv',
  name: 'RMV Rhein-Main-Verkehrsverbund (HAFAS ReST API)',
  env: 'RMV',
  baseUrl: 'https://www.rmv.de/hapi',
  license: 'RMV open-data terms',
  licenseUrl: 'https://opendata.rmv.de/site/start.html',
  tier: 'C',
  attribution: 'Rhein-Main-Verkehrsverbund GmbH (RMV)',
  modified: true,
  credentials: ['RMV_API_KEY'],
  registration: {
    url: 'https://opendata.rmv.de',
    free: true,
    note: 'RMV open data: register and request access to the RMV HAFAS ReST API (approval may take a few days); the accessId goes into RMV_API_KEY.',
  },
  timeoutMs: 8000,
  // A departure board of 40 journeys is well under 1 MB.
  maxResponseBytes: 2 * 1024 * 1024,
};
