import type { CacheWindows, FetchContext } from '../../core/data-type.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { limitOf } from '../../core/source.ts';
import { AUTOBAHN } from './source.ts';
import { ItemShape, type AutobahnItem } from './items.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import cityRoads from './city-roads.json' with { type: 'json' };

/** The services of one road this module reads; the answer's key is the service name. */
export type Service = 'roadworks' | 'warning' | 'closure' | 'webcam';

/** Motorways within reach of each register city (see src/cities/PROVENANCE.md, "Motorways per city"). */
export const CITY_ROADS: Readonly<Record<string, readonly string[]>> = cityRoads;

/** Events change by the minute; the camera list changes when an operator adds or removes cameras. */
export const EVENT_SNAPSHOT: CacheWindows = { freshSeconds: 240, staleSeconds: 3600 };
export const WEBCAM_SNAPSHOT: CacheWindows = { freshSeconds: 6 * 3600, staleSeconds: 48 * 3600 };

/** A service answer: `{"<service>": [item, ...]}`. */
const listOf = (service: Service): z.ZodType<Partial<Record<Service, AutobahnItem[]>>> => z.looseObject({ [service]: z.array(ItemShape) });
const LIST_SHAPES: Record<Service, ReturnType<typeof listOf>> = {
  roadworks: listOf('roadworks'),
  warning: listOf('warning'),
  closure: listOf('closure'),
  webcam: listOf('webcam'),
};

/** One road's list of one service. 204 or an empty body means the road has none (unknown roads answer so). */
async function fetchService(http: SourceHttp, road: string, service: Service): Promise<AutobahnItem[]> {
  const res = await http.request('/{road}/services/{service}', { params: { road, service }, headers: { accept: 'application/json' } });
  const text = res.body.toString('utf8').trim();
  if (res.status === 204 || text === '') return [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError('parse', `Autobahn ${road}/${service}: unparseable JSON`, res.status);
  }
  return shaped(LIST_SHAPES[service], body, `Autobahn ${road} ${service}`)[service]!;
}

export interface RoadItems {
  road: string;
  service: Service;
  items: AutobahnItem[];
}

export interface Snapshot {
  roads: readonly string[];
  lists: RoadItems[];
  /** Roads of which at least one service could not be read (and nothing was cached). */
  failed: string[];
  /** The first of those failures. */
  error: unknown;
}

/**
 * Called where an answer would say "nothing here": with a road unread that is not known, so the road's failure is
 * the answer's (a road whose list drifted is then format drift, and the cached answer is kept).
 */
export function nothingFound(s: Snapshot): void {
  if (s.failed.length) throw s.error;
}

/**
 * The city's roads x services, each list through the source's shared cache (one copy per road
 * for every city and data type asking for it), at most AUTOBAHN_ROAD_CONCURRENCY at a time. A failing road
 * is left out and named; only when every request fails, or nothing is found (nothingFound), is the failure the answer's.
 */
export async function roadSnapshot(
  ctx: Pick<FetchContext, 'city' | 'http' | 'cached' | 'config'>,
  services: readonly Service[],
  windows: CacheWindows,
): Promise<Snapshot> {
  const roads = CITY_ROADS[ctx.city.slug] ?? [];
  const jobs = roads.flatMap((road) => services.map((service) => ({ road, service })));
  const lists: RoadItems[] = [];
  const failed = new Set<string>();
  let firstError: unknown = null;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      try {
        const items = await ctx.cached(`${job.road}:${job.service}`, windows, () => fetchService(ctx.http, job.road, job.service));
        lists.push({ ...job, items });
      } catch (err) {
        firstError ??= err;
        failed.add(job.road);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limitOf(ctx.config, AUTOBAHN, 'ROAD_CONCURRENCY'), jobs.length) }, worker));
  if (jobs.length > 0 && lists.length === 0) throw firstError;
  return { roads, lists, failed: roads.filter((r) => failed.has(r)), error: firstError };
}
