import type { FetchContext } from '../../core/data-type.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** `Region` of the data API: gkz is the 8-digit AGS, friendlyUrl the region's URL segment. */
export interface WegweiserRegion {
  friendlyUrl: string;
  name: string;
  title?: string;
  ars: string;
  gkz: string;
  id?: number;
  parent?: string;
  type: string;
}

/** `GET /rest/statistics/data/{friendlyUrl}`: a StatisticResponse whose `data` is a DataResponse. */
export interface WegweiserStatistics {
  years: number[];
  indicatorsAndTopics?: { id: number; friendlyUrl: string; name: string; title?: string; unit?: string; type?: string }[];
  data: {
    indicators: { id?: number; friendlyUrl?: string; name: string; unit?: string; regionYearValues: (number | null)[][] }[];
    regions: WegweiserRegion[];
    source?: string;
    remark?: string;
    type?: string;
  };
}

const optText = z.string().nullish();

/** The members of a StatisticResponse both parsers read: an indicator's values are one row per region, one column per year. */
const StatisticsShape = z.looseObject({
  years: z.array(z.number()),
  data: z.looseObject({
    indicators: z.array(
      z.looseObject({
        id: z.union([z.number(), z.string()]).nullish(),
        friendlyUrl: optText,
        name: z.string(),
        unit: optText,
        regionYearValues: z.array(z.array(z.number().nullable())),
      }),
    ),
    regions: z.array(z.looseObject({ name: z.string(), title: optText, gkz: z.string(), ars: z.string(), type: z.string() })).nullish(),
    source: optText,
    remark: optText,
  }),
});

/** A `statistics/data` answer checked against the members read from it. */
export function checkedStatistics(body: unknown): z.output<typeof StatisticsShape> {
  return shaped(StatisticsShape, body, 'Wegweiser statistics data');
}

/** The members of a `region/list` answer the region is found by. */
const RegionListShape = z.array(z.looseObject({ gkz: z.string(), friendlyUrl: z.string() }));

/** The region whose Gemeindekennziffer equals the city's AGS; never a name match. */
export function regionByAgs(list: unknown, ags: string): { friendlyUrl: string } | null {
  return shaped(RegionListShape, list, 'Wegweiser region list').find((r) => r.gkz === ags) ?? null;
}

/** One entry per indicator: the latest year with a value for the (single) requested region. */
export function parseStatistics(answer: unknown) {
  const body = checkedStatistics(answer);
  const d = body.data;
  const indicators = d.indicators.map((ind) => {
    const values = ind.regionYearValues[0] ?? [];
    let latest = -1;
    for (let i = values.length - 1; i >= 0; i--)
      if (typeof values[i] === 'number') {
        latest = i;
        break;
      }
    return {
      id: ind.friendlyUrl ?? null,
      name: ind.name,
      unit: ind.unit ?? null,
      year: latest >= 0 ? (body.years[latest] ?? null) : null,
      value: latest >= 0 ? (values[latest] ?? null) : null,
      series: body.years.map((y, i) => ({ year: y, value: typeof values[i] === 'number' ? values[i] : null })),
    };
  });
  const region = d.regions?.[0];
  return {
    region: region ? { name: region.name, title: region.title ?? null, ags: region.gkz, ars: region.ars, region_type: region.type } : null,
    indicator_count: indicators.filter((i) => i.value !== null).length,
    indicators,
    data_source: d.source ?? null,
    remark: d.remark ?? null,
  };
}

const DAY = 86400;

/**
 * The statistics of `topics` for the city's region, found by AGS (the region list is cached for
 * a month), or why there are none: no region with the AGS, or a 404 (the topics have no data at
 * this region level; `none` says so in the answer).
 */
export async function statisticsOfCity(
  { city, http, cached }: Pick<FetchContext, 'city' | 'http' | 'cached'>,
  topics: readonly string[],
  none: string,
): Promise<{ body: WegweiserStatistics } | { reason: string }> {
  const region = await cached(`region:${city.ags}`, { freshSeconds: 30 * DAY, staleSeconds: 90 * DAY }, async () =>
    regionByAgs(await http.json('/rest/region/list', { query: { search: city.name, max: 25 } }), city.ags),
  );
  if (!region) return { reason: `Wegweiser Kommune lists no region with AGS ${city.ags}` };
  const res = await http.request(`/rest/statistics/data/${topics.join('+')}+{region}`, {
    params: { region: region.friendlyUrl },
    headers: { accept: 'application/json' },
    okStatuses: [404],
  });
  if (res.status === 404) return { reason: none };
  try {
    return { body: JSON.parse(res.body.toString('utf8')) as WegweiserStatistics };
  } catch {
    throw new UpstreamError('parse', 'unparseable JSON from Wegweiser Kommune');
  }
}
