import type { SourceDecl } from '../../core/source.ts';

/** MobiData BW's Open ChargePoint DataBase (OCPDB): OCPI-like public API with live EVSE status. */
export const MOBIDATA_OCPDB: SourceDecl = {
  id: 'mobidata-bw-ocpdb',
  name: 'MobiData BW Open ChargePoint DataBase',
  env: 'MOBIDATA_OCPDB',
  baseUrl: 'https://api.mobidata-bw.de/ocpdb',
  license: 'CC0-1.0',
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
  tier: 'A',
  attribution: 'MobiData BW (NVBW), Open ChargePoint DataBase',
  timeoutMs: 10000,
  // A page of OCPDB locations.
  maxResponseBytes: 32 * 1024 * 1024,
};
