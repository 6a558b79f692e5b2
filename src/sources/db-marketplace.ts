import type { SourceDecl } from '../core/source.ts';

/**
 * What every DB API Marketplace source shares: the licence, one application's credentials and its
 * plan's published limit (60 calls a minute per application, shared by every DB API it subscribes).
 * `plan` is the API's name on the marketplace, `credentialNote` how the key pair is used.
 */
export function dbMarketplace(
  plan: string,
  credentialNote: string,
): Pick<SourceDecl, 'license' | 'licenseUrl' | 'tier' | 'publishedLimit' | 'credentials' | 'registration'> {
  return {
    license: 'CC BY 4.0',
    licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    tier: 'A',
    publishedLimit: {
      perHour: 60 * 60,
      text: '60 requests/min per application (DB API Marketplace plan)',
      ref: 'research/upstreams-transport.md (DB Timetables)',
    },
    credentials: ['DB_CLIENT_ID', 'DB_API_KEY'],
    registration: {
      url: 'https://developers.deutschebahn.com/db-api-marketplace/apis/',
      free: true,
      note: `DB API Marketplace: ${credentialNote.replace('{plan}', `the free plan of "${plan}"`)}`,
    },
  };
}
