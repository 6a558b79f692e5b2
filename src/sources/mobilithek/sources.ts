import type { Registration, SourceDecl } from '../../core/source.ts';
import { CERT_PASSWORD, CERT_PATH, MOBILITHEK_BASE } from './pull.ts';

/**
 * City feeds that exist only as Mobilithek subscriptions: each needs the operator's machine
 * certificate (mutual TLS) and its own subscription id; without them the data type is disabled.
 */
/**
 * Where a Mobilithek feed's credentials come from: an account on the national access point, its
 * machine certificate for the API, and a subscription of the offer (these offers are open data
 * under the licence the source names, without fee).
 */
function registration(offer: string, subscriptions: readonly string[]): Registration {
  return {
    url: 'https://mobilithek.info',
    free: true,
    note:
      `Mobilithek (the national access point for mobility data): register, request a machine certificate for the API, and subscribe to ${offer}; ` +
      `the certificate file goes into ${CERT_PATH}, its password into ${CERT_PASSWORD}, the subscription id${subscriptions.length > 1 ? 's' : ''} into ${subscriptions.join(' and ')}.`,
  };
}

const mobilithek = (id: string, name: string, env: string, subscription: string, license: string, attribution: string, offer: string): SourceDecl => ({
  id,
  name,
  env,
  baseUrl: MOBILITHEK_BASE,
  license,
  licenseUrl: license === 'dl-de/zero-2-0' ? 'https://www.govdata.de/dl-de/zero-2-0' : 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution,
  credentials: [CERT_PATH, CERT_PASSWORD, subscription],
  registration: registration(offer, [subscription]),
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
  "Landeshauptstadt Hannover's traffic reports (DATEX II)",
);

export const MOBILITHEK_KIEL = mobilithek(
  'mobilithek-kiel',
  'Landeshauptstadt Kiel, Dauerzählstellen (Mobilithek, DATEX II)',
  'MOBILITHEK_KIEL',
  KIEL_SUBSCRIPTION,
  'dl-de/by-2-0',
  'Landeshauptstadt Kiel (via Mobilithek)',
  "Landeshauptstadt Kiel's permanent counting stations (DATEX II)",
);

export const MOBILITHEK_KOELN_LEZ = mobilithek(
  'mobilithek-koeln-lez',
  'Stadt Köln, Umweltzone (Mobilithek, DATEX II)',
  'MOBILITHEK_KOELN_LEZ',
  KOELN_LEZ_SUBSCRIPTION,
  'dl-de/zero-2-0',
  'Stadt Köln (via Mobilithek)',
  "Stadt Köln's low-emission zone (DATEX II)",
);

/**
 * Live parking: each city publishes a static table (names, capacity, coordinates) and a dynamic
 * status as two Mobilithek offers, hence two subscriptions per city.
 */
export interface ParkingSubscriptions {
  static: string;
  dynamic: string;
}

const parking = (city: string, env: string, name: string, attribution: string, license: string) => {
  const subscriptions: ParkingSubscriptions = { static: `${env}_STATIC_SUBSCRIPTION_ID`, dynamic: `${env}_DYNAMIC_SUBSCRIPTION_ID` };
  const offer = `both car-park offers of ${attribution.replace(/ \(via Mobilithek\)$/, '')}, the static table and the dynamic occupancy`;
  const source: SourceDecl = {
    ...mobilithek(`mobilithek-parking-${city}`, name, `MOBILITHEK_${env}`, subscriptions.dynamic, license, attribution, offer),
    credentials: [CERT_PATH, CERT_PASSWORD, subscriptions.static, subscriptions.dynamic],
    registration: registration(offer, [subscriptions.static, subscriptions.dynamic]),
  };
  return { source, subscriptions };
};

export const FRANKFURT_PARKING = parking(
  'frankfurt-am-main',
  'FRANKFURT_PARKING',
  'Stadt Frankfurt am Main, Parkhausbelegung (Mobilithek, DATEX II V3)',
  'Stadt Frankfurt am Main, Straßenverkehrsamt (via Mobilithek)',
  'dl-de/by-2-0',
);

export const MAGDEBURG_PARKING = parking(
  'magdeburg',
  'MAGDEBURG_PARKING',
  'Landeshauptstadt Magdeburg, Parkhausbelegung (Mobilithek, DATEX II)',
  'Landeshauptstadt Magdeburg (via Mobilithek)',
  'dl-de/by-2-0',
);

export const WUPPERTAL_PARKING = parking(
  'wuppertal',
  'WUPPERTAL_PARKING',
  'Stadt Wuppertal, Parkhausbelegung (Mobilithek, DATEX II)',
  'Stadt Wuppertal (via Mobilithek)',
  'dl-de/zero-2-0',
);

export const EROUND_SUBSCRIPTION = 'EROUND_CHARGING_SUBSCRIPTION_ID';

/** eRound's AFIR charging status (DATEX II V3 as JSON), CC0. */
export const MOBILITHEK_EROUND: SourceDecl = {
  ...mobilithek(
    'mobilithek-eround',
    'eRound AFIR charging point status (Mobilithek, DATEX II V3 JSON)',
    'MOBILITHEK_EROUND',
    EROUND_SUBSCRIPTION,
    'CC0-1.0',
    'Hamburger Energienetze GmbH / eRound (via Mobilithek)',
    "eRound's AFIR charging point status (DATEX II V3 JSON)",
  ),
  licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
};
