import type { SourceDecl } from '../../core/source.ts';
import { OPARL_SYSTEMS } from './systems.ts';

const [first, ...others] = OPARL_SYSTEMS;

/** The cities' council information systems through their OParl interfaces (one system per city). */
export const OPARL: SourceDecl = {
  id: 'oparl',
  name: 'Council information systems (OParl)',
  env: 'OPARL',
  baseUrl: first.defaultUrl,
  urls: Object.fromEntries(
    others.map((s) => [
      s.url as string,
      { env: `OPARL_${(s.url as string).toUpperCase()}_SYSTEM_URL`, default: s.defaultUrl, description: `OParl System URL of ${s.slug}` },
    ]),
  ),
  license: 'per city: dl-de/zero-2-0, dl-de/by-2-0 or CC-BY-4.0 (data.license)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'B',
  attribution: 'Ratsinformationssystem der Stadt (OParl); Lizenz je Stadt siehe data.license',
  timeoutMs: 15000,
  // One page of papers of a busy council is a few hundred kB.
  maxResponseBytes: 8 * 1024 * 1024,
};
