import type { SourceDecl } from '../../core/source.ts';

/** Tankerkönig: fuel prices of the Markttransparenzstelle für Kraftstoffe (MTS-K); free API key by registration. */
export const TANKERKOENIG: SourceDecl = {
  id: 'tankerkoenig',
  name: 'Tankerkönig (MTS-K fuel prices)',
  env: 'TANKERKOENIG',
  baseUrl: 'https://creativecommons.tankerkoenig.de/json',
  license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
  tier: 'A',
  attribution: 'Tankerkönig (creativecommons.tankerkoenig.de), data of the MTS-K',
  publishedLimit: {
    perHour: null,
    text: 'no published call limit; the free API runs best effort and needs a key per user',
    ref: 'https://creativecommons.tankerkoenig.de/',
  },
  credentials: ['TANKERKOENIG_API_KEY'],
  registration: {
    url: 'https://creativecommons.tankerkoenig.de',
    free: true,
    note: 'Tankerkönig: request a free personal API key with an e-mail address ("API-Key"); it goes into TANKERKOENIG_API_KEY.',
  },
  timeoutMs: 8000,
  // A list answer within 25 km: a few hundred stations, well under 1 MB.
  maxResponseBytes: 2 * 1024 * 1024,
  // The key is shared by every city: keep to the fair-use pace Tankerkönig asks for.
  ratePerMinute: 60,
};
