import type { SourceDecl } from '../../core/source.ts';

/**
 * Bundes-Klinik-Atlas (Federal Ministry of Health; operated by the G-BA from 2026): the hospital
 * list behind its map. It states no licence, so the source is off unless an operator enables it.
 */
export const KLINIKATLAS: SourceDecl = {
  id: 'klinikatlas',
  name: 'Bundes-Klinik-Atlas',
  env: 'KLINIKATLAS',
  baseUrl: 'https://bundes-klinik-atlas.de',
  license: 'no licence stated',
  licenseUrl: 'https://bundes-klinik-atlas.de/impressum/',
  tier: 'C',
  attribution: 'Bundes-Klinik-Atlas (bundes-klinik-atlas.de)',
  modified: true,
  enabledByDefault: false,
  offReason:
    'The Bundes-Klinik-Atlas publishes no licence for its data, so this source is off by default; an operator may enable it ' +
    '(KLINIKATLAS_ENABLED=true) on their own assessment of the terms.',
  timeoutMs: 20_000,
  // About 1,700 hospitals, a few hundred kB.
  maxResponseBytes: 10 * 1024 * 1024,
};
