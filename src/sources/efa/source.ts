import type { SourceDecl } from '../../core/source.ts';

/** EFA departure monitors (rapidJSON) of VRR (Rhine-Ruhr) and VVS (Stuttgart); keyless. */
export const EFA: SourceDecl = {
  id: 'efa',
  name: 'EFA departure monitors (VRR, VVS)',
  env: 'EFA',
  baseUrl: 'https://efa.vrr.de/standard',
  urls: {
    vvs: { env: 'EFA_VVS_BASE_URL', default: 'https://www3.vvs.de/mngvvs', description: 'Base URL of the VVS (Stuttgart) EFA' },
  },
  // Neither network states a licence for its EFA answers.
  license: 'not stated',
  licenseUrl: 'https://www.vrr.de/de/fahrplan/',
  tier: 'C',
  attribution: 'Verkehrsverbund Rhein-Ruhr (VRR) / Verkehrs- und Tarifverbund Stuttgart (VVS), EFA departure monitor',
  modified: true,
  timeoutMs: 8000,
  // A departure monitor of 40 departures is well under 1 MB.
  maxResponseBytes: 4 * 1024 * 1024,
};
