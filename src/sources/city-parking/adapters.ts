import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { PARKAPI_V3 } from '../parkapi-v3/source.ts';
import { PARKAPI_PARKING, asParkingSite, readParkapi } from '../parkapi-v3/sites.ts';
import { parseDortmundParkhaeuser } from './dortmund.ts';
import { parseFreiburgPls } from './freiburg.ts';
import { parseKarlsruheParkhaeuser } from './karlsruhe.ts';
import { mergeSites } from './merge.ts';
import { PARKENDD_CITIES, parseParkenddCity } from './parkendd.ts';
import { DORTMUND_PARKING, FEEDS, FREIBURG_PARKING, KARLSRUHE_PARKING, PARKENDD } from './source.ts';
import type { SourceDecl } from '../../core/source.ts';
import { PARKING_MAX_AGE_HOURS, ageHours, guardedParking, newestUpdate, withFreshness } from './sites.ts';

type Read = (ctx: FetchContext) => Promise<ParkingSiteRecord[]>;

/** One parking feed: the source (upstream host) it is read from, the id its sites carry, and how it is read. */
interface Feed {
  upstream: SourceDecl;
  source: string;
  read: Read;
}

/** The feeds a city publishes itself, each its own source. */
export const OWN_FEEDS: Readonly<Record<string, Feed>> = {
  'freiburg-im-breisgau': {
    upstream: FREIBURG_PARKING,
    source: FEEDS.freiburg.source,
    read: async ({ http }) =>
      parseFreiburgPls(await http.json('', { query: { request: 'getfeature', service: 'wfs', version: '1.1.0', typename: 'pls', outputformat: 'geojson' } })),
  },
  karlsruhe: {
    upstream: KARLSRUHE_PARKING,
    source: FEEDS.karlsruhe.source,
    read: async ({ http }) =>
      parseKarlsruheParkhaeuser(
        await http.json('', {
          query: { service: 'WFS', version: '1.0.0', request: 'GetFeature', typeName: 'TBA:parkhaeuser', outputFormat: 'application/json' },
        }),
      ),
  },
  dortmund: {
    upstream: DORTMUND_PARKING,
    source: FEEDS.dortmund.source,
    read: async ({ http }) => parseDortmundParkhaeuser(await http.json('', { query: { limit: 100 } })),
  },
};

function parkenddFeed(slug: string): Feed | null {
  const c = PARKENDD_CITIES[slug];
  if (!c) return null;
  const source = `parkendd-${c.id.toLowerCase()}`;
  return { upstream: PARKENDD, source, read: async ({ http }) => parseParkenddCity(await http.json(`/${encodeURIComponent(c.id)}`), source, c.license).sites };
}

/** Cities that only ParkAPI v3 covers: answered by the type's parkapi-v3 primary (its own source and breaker). */
export const PARKAPI_ONLY_CITIES: readonly string[] = Object.keys(PARKAPI_PARKING)
  .filter((s) => !OWN_FEEDS[s] && !PARKENDD_CITIES[s])
  .sort();

export const PARKING_CITIES: readonly string[] = [...new Set([...Object.keys(OWN_FEEDS), ...Object.keys(PARKENDD_CITIES), ...Object.keys(PARKAPI_PARKING)])]
  .filter((s) => !PARKAPI_ONLY_CITIES.includes(s))
  .sort();

/** What one feed gave: its sites, or why it is not in the answer. */
type FeedOutcome = { source: string; sites: ParkingSiteRecord[] } | LeftOut;
type LeftOut = { source: string; left_out: string; feed_updated_at?: string; error?: unknown };

/** A feed whose newest live value is older than the guard is frozen: left out, never shown as live. */
function fresh(source: string, sites: ParkingSiteRecord[], now: Date): FeedOutcome {
  if (sites.length === 0) return { source, left_out: 'the parking feed lists no car park' };
  const newest = newestUpdate(sites);
  const age = ageHours(newest, now);
  if (newest === null || age === null) return { source, left_out: 'the parking feed carries no live value' };
  if (age > PARKING_MAX_AGE_HOURS)
    return {
      source,
      left_out: `the parking feed has not been updated since ${newest} (more than ${PARKING_MAX_AGE_HOURS} h): its counts are not shown as live`,
      feed_updated_at: newest,
    };
  return { source, sites: sites.map((s) => withFreshness(s, now)) };
}

/** The answering source's own feed, through its http client: a failure is kept, so it can stand when nothing else answers. */
async function mainFeedOf(ctx: FetchContext, feed: Feed): Promise<FeedOutcome> {
  try {
    return fresh(feed.source, await feed.read(ctx), ctx.now);
  } catch (error) {
    const kind = error instanceof UpstreamError ? error.kind : 'failure';
    return { source: feed.source, left_out: `the feed did not answer (${kind})`, error };
  }
}

/** Another feed of the city, read as a part behind its own source's settings and breaker. */
async function partFeed(ctx: FetchContext, feed: Feed): Promise<FeedOutcome> {
  const part = await ctx.part(feed.upstream, (sub) => feed.read(sub));
  return part.status === 'ok' ? fresh(feed.source, part.value, ctx.now) : { source: feed.source, left_out: part.reason };
}

async function parkapi(ctx: FetchContext, slug: string): Promise<FeedOutcome[]> {
  const feeds = PARKAPI_PARKING[slug] ?? [];
  if (feeds.length === 0) return [];
  const part = await ctx.part(PARKAPI_V3, async (sub) => (await readParkapi(sub, feeds)).map(asParkingSite));
  if (part.status !== 'ok') return [{ source: PARKAPI_V3.id, left_out: part.reason }];
  return feeds.map((f) => {
    const source = `parkapi-${f.uid.replace(/_/g, '-')}`;
    return fresh(
      source,
      part.value.filter((s) => s.source === source),
      ctx.now,
    );
  });
}

/**
 * Car parks of every open feed of the city, in order of preference: the city's own feed (the
 * answering source; ParkenDD where the city has none), then ParkAPI v3, then ParkenDD, each
 * further feed a part behind its own source; a car park a preferred feed already lists is left
 * out. A feed frozen for more than the guard, empty or not answering is left out and named in
 * meta.left_out_sources; with none left the answer is no_data with the reasons. When the
 * answering source's own feed fails and no other feed answers, its failure stands (503 or a stale answer).
 */
export const cityParking: Adapter<ParkingSiteRecord[]> = async (ctx) => {
  const slug = ctx.city.slug;
  const own = OWN_FEEDS[slug];
  const pdd = parkenddFeed(slug);
  const mainFeed = own ?? pdd;
  if (!mainFeed) return { data: null, status: 'no_data', meta: { reason: 'no parking feed is configured for this city' } };
  const [o, a, p] = await Promise.all([mainFeedOf(ctx, mainFeed), parkapi(ctx, slug), own && pdd ? partFeed(ctx, pdd) : Promise.resolve(null)]);
  const outcomes = [o, ...a, p].filter((x): x is FeedOutcome => x !== null);
  const answered = outcomes.filter((x): x is { source: string; sites: ParkingSiteRecord[] } => 'sites' in x);
  const leftOut = outcomes.filter((x): x is LeftOut => 'left_out' in x);
  // Nothing usable came back and the answering source's own feed failed: the failure stands.
  if (answered.length === 0 && 'error' in o && o.error !== undefined) throw o.error;
  const left_out_sources = leftOut.map(({ source, left_out }) => ({ source, reason: left_out }));
  if (answered.length === 0) {
    const reason = leftOut.length === 1 ? leftOut[0]!.left_out : leftOut.map((x) => `${x.source}: ${x.left_out}`).join('; ');
    const frozen = leftOut.map((x) => x.feed_updated_at).filter((t): t is string => t !== undefined);
    return {
      data: null,
      status: 'no_data',
      meta: { reason, ...(frozen.length ? { feed_updated_at: frozen.sort().at(-1) } : {}), ...(leftOut.length > 1 ? { left_out_sources } : {}) },
    };
  }
  const { sites, duplicates } = mergeSites(answered);
  const meta: Record<string, unknown> = { merged_sources: answered.map((x) => x.source) };
  if (Object.keys(duplicates).length) meta.duplicates_left_out = duplicates;
  if (left_out_sources.length) meta.left_out_sources = left_out_sources;
  return { data: sites, as_of: newestUpdate(sites), meta };
};

/** Cities only ParkAPI v3 covers (the parkapi-v3 variant): its sources' sites under the same guard. */
export const parkapiParking: Adapter<ParkingSiteRecord[]> = async (ctx) => {
  const feeds = PARKAPI_PARKING[ctx.city.slug] ?? [];
  const sites = (await readParkapi(ctx, feeds)).map(asParkingSite);
  if (sites.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the parking feed lists no car park' } };
  return guardedParking(sites, ctx.now, { merged_sources: [...new Set(sites.map((s) => s.source))] });
};

/** The compare view: totals over the sites with a live count. */
export function summariseParking(data: unknown): { sites: number; live_sites: number; capacity: number; free_spaces: number } {
  const sites = data as ParkingSiteRecord[];
  const live = sites.filter((s) => s.free_spaces !== null);
  return {
    sites: sites.length,
    live_sites: live.length,
    capacity: live.reduce((n, s) => n + (s.capacity ?? 0), 0),
    free_spaces: live.reduce((n, s) => n + (s.free_spaces ?? 0), 0),
  };
}
