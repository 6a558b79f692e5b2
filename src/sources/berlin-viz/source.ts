import type { SourceDecl } from '../../core/source.ts';

/**
 * Verkehrsinformationszentrale Berlin (VIZ): roadworks, closures and other disruptions "of
 * particular traffic interest" as one keyless GeoJSON file for the whole city (a few hundred features).
 */
export const BERLIN_VIZ: SourceDecl = {
  id: 'berlin-viz',
  name: 'Verkehrsinformationszentrale Berlin (VIZ), Baustellen und Sperrungen',
  env: 'BERLIN_VIZ',
  baseUrl: 'https://api.viz.berlin.de',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Senatsverwaltung für Mobilität, Verkehr, Klimaschutz und Umwelt Berlin / Verkehrsinformationszentrale Berlin (VIZ)',
  timeoutMs: 10000,
  maxResponseBytes: 16 * 1024 * 1024,
};
