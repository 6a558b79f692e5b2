import type { Adapter } from '../../core/data-type.ts';
import type { TreeCadastreRecord } from '../../core/records/places.ts';
import { TREE_WFS_BY_SLUG } from './cities.ts';
import { parseHits, parseTreePage, type WfsGeoJson } from './parse.ts';

/** Trees per WFS request (one sample page). */
export const TREE_PAGE = 500;

/** One page of the city's tree cadastre (WFS startIndex) with the cadastre's full count. */
export const treeCadastre: Adapter<TreeCadastreRecord> = async ({ city, http, params, now }) => {
  const wfs = TREE_WFS_BY_SLUG.get(city.slug);
  if (!wfs) return { data: null, status: 'no_data', meta: { reason: 'no open tree cadastre WFS is known for this city' } };
  const base = wfs.url ? http.url(wfs.url) : http.baseUrl;
  const startIndex = typeof params.start_index === 'number' ? params.start_index : 0;
  const common = { service: 'WFS', version: '2.0.0', request: 'GetFeature', typeNames: wfs.typeName };
  const body = await http.json<WfsGeoJson>('', {
    base,
    query: { ...common, count: TREE_PAGE, startIndex, outputFormat: wfs.outputFormat, srsName: 'EPSG:4326' },
  });
  const page = parseTreePage(body, wfs, now);
  // Some services (ArcGIS, deegree) leave numberMatched out of GeoJSON; a hits request gives it.
  const total = page.total ?? parseHits(await http.xml('', { base, query: { ...common, resultType: 'hits' } }));
  if (page.trees.length === 0) {
    return {
      data: null,
      status: 'no_data',
      meta: { reason: startIndex > 0 ? `the cadastre has no tree at position ${startIndex}` : 'the cadastre lists no tree', total },
    };
  }
  return {
    data: { total, start_index: startIndex, sample_size: page.trees.length, license: wfs.license, attribution: wfs.attribution, trees: page.trees },
    meta: {
      license_url: wfs.licenseUrl,
      ...(total !== null && startIndex + page.trees.length < total ? { next_start_index: startIndex + page.trees.length } : {}),
    },
  };
};
