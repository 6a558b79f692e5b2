import type { DataType } from '../core/data-type.ts';
import { WEGWEISER } from '../sources/wegweiser/source.ts';
import { parseStatistics, regionByAgs, type WegweiserRegion, type WegweiserStatistics } from '../sources/wegweiser/statistics.ts';
import { BA_STATISTIK } from '../sources/ba/source.ts';
import { parseEckwerte, parseKreisList, type BaKreis } from '../sources/ba/eckwerte.ts';
import { ZENSUS_GRID } from '../sources/zensus/source.ts';
import { gridStatisticsQuery, parseGridStatistics } from '../sources/zensus/grid-stats.ts';
import { UpstreamError } from '../core/upstream-error.ts';

const DAY = 86400;

/** Wegweiser topics whose indicators make up the key-indicator set (friendlyUrl segments). */
export const WEGWEISER_TOPICS = ['demografische-entwicklung', 'soziale-lage', 'beschaeftigung-arbeitsmarkt'] as const;

export const indicators: DataType = {
  type: 'indicators',
  label: 'Kennzahlen',
  label_en: 'Key indicators',
  group: 'society',
  tool: 'indicators',
  summary: 'Key municipal indicators (demography, social situation, employment) with year and unit, from Wegweiser Kommune',
  description:
    'Every indicator of the Wegweiser Kommune topics "Demografische Entwicklung" (demografische-entwicklung), ' +
    '"Soziale Lage" (soziale-lage) and "Beschäftigung & Arbeitsmarkt" (beschaeftigung-arbeitsmarkt) for the city, ' +
    'as the upstream defines them: name, unit, the latest year with a value, that value and the yearly series. ' +
    'The city is found by its AGS (Wegweiser `gkz`), never by name.',
  source: WEGWEISER,
  cache: { freshSeconds: DAY, staleSeconds: 30 * DAY },
  list: 'indicators',
  compare: { resource: 'indicators' },
  async fetch({ city, http, cached }) {
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
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError('parse', 'unparseable JSON from Wegweiser Kommune');
    }
    const data = parseStatistics(body);
    if (data.indicator_count === 0) return { data: null, status: 'no_data', meta: { reason: 'no indicator has a value for this region' } };
    return { data };
  },
};

export const unemployment: DataType = {
  type: 'unemployment',
  label: 'Arbeitslosigkeit',
  label_en: 'Unemployment',
  group: 'society',
  tool: 'unemployment',
  summary: 'Registered unemployed and unemployment rate of the reference month (monthly, Bundesagentur für Arbeit)',
  description:
    'Eckwerte table EckwerteTabelleALOKr of the BA statistics API for the Kreis whose key is the first five AGS digits. ' +
    'Only kreisfreie Städte (and Berlin, Hamburg) have their own Kreis; cities inside a Kreis answer no_data instead of the Kreis value.',
  source: BA_STATISTIK,
  cache: { freshSeconds: 6 * 3600, staleSeconds: 45 * DAY },
  compare: { resource: 'unemployment' },
  async fetch({ city, http, cached }) {
    if (!city.district_free) {
      return {
        data: null,
        status: 'no_data',
        meta: {
          reason: `${city.name} belongs to a Kreis; the BA publishes municipal figures only to certificate holders, and the Kreis value is not the city's`,
        },
      };
    }
    const kreise = await cached<BaKreis[]>('kreise', { freshSeconds: 7 * DAY, staleSeconds: 60 * DAY }, async () =>
      parseKreisList(await http.text('', { base: http.url('kreise') })),
    );
    const kreis = kreise.find((k) => k.key === city.ags.slice(0, 5));
    if (!kreis) return { data: null, status: 'no_data', meta: { reason: `the BA region list has no Kreis ${city.ags.slice(0, 5)}` } };
    const csv = await http.text('/ct/v1/tableFetch/csv/EckwerteTabelleALOKr', { query: { Kreis: kreis.name } });
    const parsed = parseEckwerte(csv);
    return { data: { kreis_key: kreis.key, ...parsed, region_name: parsed.region_name ?? kreis.name } };
  },
};

export const populationDensity: DataType = {
  type: 'population-density',
  label: 'Bevölkerungsdichte',
  label_en: 'Population density',
  group: 'society',
  tool: 'population_density',
  summary: 'Inhabitants per km² from the Zensus 2022 100 m grid (reference date 15 May 2022)',
  description:
    "Census inhabitants summed over the city's 100 m grid cells (cells carry the AGS) divided by the municipal area of the " +
    'Gemeindeverzeichnis (31.12.2024); also the populated area (cells × 0.01 km²) and the density over it.',
  source: ZENSUS_GRID,
  cache: { freshSeconds: 7 * DAY, staleSeconds: 30 * DAY },
  async fetch({ city, http }) {
    const body = await http.json('/0/query', { query: gridStatisticsQuery(city.ags) });
    const data = parseGridStatistics(body, city.area_km2);
    if (!data) return { data: null, status: 'no_data', meta: { reason: `no populated Zensus grid cell carries AGS ${city.ags}` } };
    return { data };
  },
};

export const SOCIETY_MISC_TYPES: DataType[] = [indicators, unemployment, populationDensity];
