import type { SourceDecl } from '../../core/source.ts';
import { BORIS_STATES } from './states.ts';

const [first, ...others] = BORIS_STATES;

/** The states' open BORIS WFS services (Bodenrichtwerte), keyless; base URL is Berlin's. */
export const BORIS: SourceDecl = {
  id: 'boris-wfs',
  name: 'BORIS standard land values of the states (WFS)',
  env: 'BORIS',
  baseUrl: first.defaultUrl,
  urls: Object.fromEntries(
    others.map((s) => [
      s.url as string,
      { env: `BORIS_${s.state}_URL`, default: s.defaultUrl, description: `BORIS WFS of ${s.state} (${s.typeNames}, ${s.license})` },
    ]),
  ),
  license: 'per state: dl-de/zero-2-0 (BE, HE), dl-de/by-2-0 (NI, HB, BB, TH), CC-BY-4.0 (MV) (data.standard_land_values.provenance)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Gutachterausschüsse für Grundstückswerte der Länder (BORIS); publisher and licence per state in data.standard_land_values.provenance',
  // One breaker spans several states' hosts: one dead host should not trip it for the others at once.
  breaker: { threshold: 10 },
  timeoutMs: 30_000,
  // A GML page of 500 zones with their polygons runs to several MB.
  maxResponseBytes: 24 * 1024 * 1024,
};
