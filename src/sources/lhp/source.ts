import type { SourceDecl } from '../../core/source.ts';

/**
 * Länderübergreifendes Hochwasserportal (LHP, hochwasserzentralen.de): the flood centres of the
 * Länder. The legacy webservices answer only with the session token `ki` that the home page
 * writes into its script (`addLagePegel(<digits>)`); without a valid one they answer 200 with
 * an empty body. The rights stay with the Länder; the portal requires the source link and the
 * "Stand" of the data beside every use.
 */
export const LHP: SourceDecl = {
  id: 'lhp',
  name: 'Länderübergreifendes Hochwasserportal (LHP)',
  env: 'LHP',
  baseUrl: 'https://www.hochwasserzentralen.de',
  license: 'LHP terms of use (rights with the flood centres of the Länder)',
  licenseUrl: 'https://www.hochwasserzentralen.de/',
  tier: 'B',
  attribution: 'Datenquelle: www.hochwasserzentralen.de (ungeprüfte Rohdaten der Hochwasserzentralen der Länder)',
  timeoutMs: 10000,
  // The home page is ~100 KB, one gauge answer well under 2 KB.
  maxResponseBytes: 2 * 1024 * 1024,
  breaker: { threshold: 5, cooldownSeconds: 300 },
};
