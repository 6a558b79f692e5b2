import type { SourceDecl } from '../../core/source.ts';
import { CERT_PASSWORD, CERT_PATH, MOBILITHEK_BASE } from './pull.ts';

/**
 * City feeds that exist only as Mobilithek subscriptions: each needs the operator's machine
 * certificate (mutual TLS) and its own subscription id; without them the data type is disabled.
 */
const mobilithek = (id: string, name: string, env: string, subscription: string, license: string, attribution: string): SourceDecl => ({
  id,
  name,
  env,
  baseUrl: MOBILITHEK_BASE,
  license,
  licenseUrl: license === 'dl-de/zero-2-0' ? 'https://www.govdata.de/dl-de/zero-2-0' : 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution,
  credentials: [CERT_PATH, CERT_PASSWORD, subscription],
  timeoutMs: 15000,
  maxResponseBytes: 32 * 1024 * 1024,
});

export const HANNOVER_SUBSCRIPTION = 'HANNOVER_TRAFFIC_SUBSCRIPTION_ID';
export const KIEL_SUBSCRIPTION = 'KIEL_COUNTING_SUBSCRIPTION_ID';
export const KOELN_LEZ_SUBSCRIPTION = 'KOELN_LEZ_SUBSCRIPTION_ID';

export const MOBILITHEK_HANNOVER = mobilithek(
  'mobilithek-hannover',
  'Landeshauptstadt Hannover, Verkehrsmeldungen (Mobilithek, DATEX II)',
  'MOBILITHEK_HANNOVER',
  HANNOVER_SUBSCRIPTION,
  'dl-de/by-2-0',
  'Landeshauptstadt Hannover, Fachbereich Tiefbau (via Mobilithek)',
);

export const MOBILITHEK_KIEL = mobilithek(
  'mobilithek-kiel',
  'Landeshauptstadt Kiel, Dauerzählstellen (Mobilithek, DATEX II)',
  'MOBILITHEK_KIEL',
  KIEL_SUBSCRIPTION,
  'dl-de/by-2-0',
  'Landeshauptstadt Kiel (via Mobilithek)',
);

export const MOBILITHEK_KOELN_LEZ = mobilithek(
  'mobilithek-koeln-lez',
  'Stadt Köln, Umweltzone (Mobilithek, DATEX II)',
  'MOBILITHEK_KOELN_LEZ',
  KOELN_LEZ_SUBSCRIPTION,
  'dl-de/zero-2-0',
  'Stadt Köln (via Mobilithek)',
);
