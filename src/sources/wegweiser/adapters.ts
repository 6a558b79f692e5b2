import type { Adapter } from '../../core/data-type.ts';
import type { IndicatorsRecord } from '../../core/records/society.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { parseStatistics, regionByAgs, type WegweiserRegion, type WegweiserStatistics } from './statistics.ts';

const DAY = 86400;

/** Wegweiser topics whose indicators make up the key-indicator set (friendlyUrl segments). */
export const WEGWEISER_TOPICS = ['demografische-entwicklung', 'soziale-lage', 'beschaeftigung-arbeitsmarkt'] as const;

/** The region by AGS (region list, cached), then every indicator of the topics for it. */
export const keyIndicators: Adapter<IndicatorsRecord> = async ({ city, http, cached }) => {
  const region = await cached<WegweiserRegion | null>(`region:${city.ags}`, { freshSeconds: 30 * DAY, staleSeconds: 90 * DAY }, async () =>
    regionByAgs(await http.json('/rest/region/list', { query: { search: city.name, max: 25 } }), city.ags),
  );
  if (!region) return { data: null, status: 'no_data', meta: { reason: `Wegweiser Kommune lists no region with AGS ${city.ags}` } };
  const res = await http.request(`/rest/statistics/data/${WEGWEISER_TOPICS.join('+')}+{region}`, {
    params: { region: region.friendlyUrl },
    headers: { accept: 'application/json' },
    okStatuses: [404],
  });
  // 404: the topics have no data at this region level.
  if (res.status === 404) return { data: null, status: 'no_data', meta: { reason: 'Wegweiser Kommune has no data for this region' } };
  let body: WegweiserStatistics;
  try {
    body = JSON.parse(res.body.toString('utf8')) as WegweiserStatistics;
  } catch {
    throw new UpstreamError('parse', 'unparseable JSON from Wegweiser Kommune');
  }
  const data = parseStatistics(body);
  if (data.indicator_count === 0) return { data: null, status: 'no_data', meta: { reason: 'no indicator has a value for this region' } };
  return { data };
};
