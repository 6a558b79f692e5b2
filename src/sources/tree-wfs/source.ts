import type { SourceDecl } from '../../core/source.ts';
import { TREE_WFS_CITIES } from './cities.ts';

const [first, ...others] = TREE_WFS_CITIES;

/** The cities' street tree cadastres (WFS 2.0 GetFeature as GeoJSON), keyless. */
export const TREE_WFS: SourceDecl = {
  id: 'tree-cadastre-wfs',
  name: 'Municipal street tree cadastres (WFS)',
  env: 'TREE_WFS',
  baseUrl: first.defaultUrl,
  urls: Object.fromEntries(
    others.map((c) => [
      c.url as string,
      { env: `TREE_WFS_${(c.url as string).toUpperCase()}_URL`, default: c.defaultUrl, description: `Tree cadastre WFS of ${c.slug}` },
    ]),
  ),
  license: 'per city: dl-de/zero-2-0 (Berlin), dl-de/by-2-0 (Hamburg), CC-BY-4.0 (Kiel) (data.license)',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: 'Baumkataster der Stadt; Quelle und Lizenz je Stadt siehe data.attribution und data.license',
  // One breaker spans several cities' hosts: a single dead host should not trip it for the others at once.
  breaker: { threshold: 10 },
  timeoutMs: 20000,
  // 500 trees as GeoJSON are about 400 kB.
  maxResponseBytes: 8 * 1024 * 1024,
};
