import type { SourceDecl } from '../../core/source.ts';

/** HVV Geofox Thin Interface (GTI): signed JSON POSTs, access by agreement with HVV. */
export const HVV_GEOFOX: SourceDecl = {
  id: 'hvv-geofox',
  name: 'HVV Geofox GTI (Hamburger Verkehrsverbund)',
  env: 'HVV_GEOFOX',
  baseUrl: 'https://gti.geofox.de/gti/public',
  license: 'by agreement with HVV',
  licenseUrl: 'https://www.hvv.de/de/fahrplaene/abruf-fahrplaninfos/datenabruf',
  tier: 'C',
  attribution: 'Hamburger Verkehrsverbund GmbH (HVV), Geofox GTI',
  modified: true,
  credentials: ['HVV_GEOFOX_USER', 'HVV_GEOFOX_PASSWORD'],
  registration: {
    url: 'https://www.hvv.de',
    free: 'by agreement',
    note: 'HVV Geofox GTI: access by agreement with HVV (ask HVV for GTI credentials); user into HVV_GEOFOX_USER, signing key into HVV_GEOFOX_PASSWORD.',
  },
  timeoutMs: 8000,
  // GTI answers for one station are a few KB.
  maxResponseBytes: 2 * 1024 * 1024,
};
