import type { SourceDecl } from '../../core/source.ts';

/**
 * Hamburg's traffic situation map (Urban Data Platform, OGC API Features, keyless): about
 * 22,000 road segments with a state class, refreshed every five minutes.
 */
export const HAMBURG_VERKEHRSLAGE: SourceDecl = {
  id: 'hamburg-verkehrslage',
  name: 'Freie und Hansestadt Hamburg, Verkehrslage (Urban Data Platform)',
  env: 'HAMBURG_VERKEHRSLAGE',
  baseUrl: 'https://api.hamburg.de/datasets/v1/verkehrslage',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Freie und Hansestadt Hamburg, Behörde für Verkehr und Mobilitätswende',
  // The OGC API timed out repeatedly in July 2026; a short budget lets STALE answers take over.
  timeoutMs: 10000,
  maxResponseBytes: 16 * 1024 * 1024,
};
