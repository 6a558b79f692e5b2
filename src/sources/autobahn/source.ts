import type { SourceDecl } from '../../core/source.ts';

/**
 * Autobahn GmbH traffic API (keyless): per motorway the lists of roadworks, warnings, closures
 * and webcams. One road's list is rarely above a few hundred kilobytes; the A3/A7 roadworks
 * lists are the largest.
 */
export const AUTOBAHN: SourceDecl = {
  id: 'autobahn',
  name: 'Autobahn GmbH des Bundes (Verkehrsinformationen)',
  env: 'AUTOBAHN',
  baseUrl: 'https://verkehr.autobahn.de/o/autobahn',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Bundesanstalt für Straßenwesen (BASt) / Autobahn GmbH des Bundes',
  publishedLimit: {
    perHour: null,
    text: 'no published limit',
    ref: 'research/upstreams-transport.md section 6 (Autobahn API)',
  },
  timeoutMs: 8000,
  maxResponseBytes: 8 * 1024 * 1024,
  // A city asks up to 15 roads x 3 services: one failing road must not open the breaker for all.
  breaker: { threshold: 10, cooldownSeconds: 120 },
  limits: {
    RADIUS_KM: {
      default: 30,
      min: 1,
      max: 100,
      // The curated roads per city reach ~32 km: a larger radius finds items only on those roads.
      description: 'Motorway items (events, cameras) farther than this from the city point are left out (km; the roads per city reach about 32 km)',
    },
    ROAD_CONCURRENCY: {
      default: 8,
      min: 1,
      max: 32,
      description:
        'Road list requests of one city that run at once (Ruhr cities ask 10-15 roads per service; the upstream client holds at most 32 connections per origin)',
    },
  },
};
