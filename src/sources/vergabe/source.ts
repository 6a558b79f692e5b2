import type { SourceDecl } from '../../core/source.ts';

/**
 * Datenservice Öffentlicher Einkauf (oeffentlichevergabe.de): daily exports of every published
 * procurement notice (federal, Land, municipal, also below EU thresholds). Read by a daily job only.
 */
export const VERGABE: SourceDecl = {
  id: 'oeffentlichevergabe',
  name: 'Datenservice Öffentlicher Einkauf (oeffentlichevergabe.de)',
  env: 'VERGABE',
  baseUrl: 'https://oeffentlichevergabe.de/api',
  // The portal's Open-Data-Richtlinie places the exports under CC0.
  license: 'CC0 1.0',
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
  tier: 'A',
  attribution: 'Datenservice Öffentlicher Einkauf (Beschaffungsamt des BMI)',
  modified: true,
  timeoutMs: 120_000,
  // A day's OCDS export is a few MB zipped.
  maxResponseBytes: 64 * 1024 * 1024,
};
