import type { SourceDecl } from '../../core/source.ts';

/**
 * BKG VG250 administrative boundaries (Verwaltungsgebiete 1:250 000, "Ebenen" edition as of 31
 * December, ETRS89 / UTM 32N shapefiles), read by the monthly geo precompute only.
 */
export const BKG_VG250: SourceDecl = {
  id: 'bkg-vg250',
  name: 'BKG Verwaltungsgebiete 1:250 000 (VG250)',
  env: 'BKG_VG250',
  baseUrl: 'https://daten.gdz.bkg.bund.de/produkte/vg/vg250_ebenen_1231/aktuell',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: '© GeoBasis-DE / BKG (Ausgabe: meta.edition), dl-de/by-2-0; Daten verändert: nach WGS 84 umgerechnet, Grenzen vereinfacht',
  modified: true,
  // The whole-country archive is about 70 MB.
  timeoutMs: 600_000,
  maxResponseBytes: 300 * 1024 * 1024,
};

/** The archive below the base URL. */
export const VG250_ARCHIVE = '/vg250_12-31.utm32s.shape.ebenen.zip';
