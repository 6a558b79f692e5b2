import type { FastifyRequest } from 'fastify';
import type { RouteDoc } from '../http/route-doc.ts';
import type { ServiceContext } from '../services/context.ts';
import type { ClientLimiter } from '../http/rate-limit.ts';
import type { HitLane } from '../http/hit-lane.ts';
import { keptViews, PreparedViews, type KeptViews } from '../http/prepared-views.ts';
import type { LaneTarget } from '../http/hit-lane.ts';
import type { Runtime } from '../pipeline/runtime.ts';

/** A registered route with its docs: the OpenAPI document's only input. */
export interface DocumentedRoute {
  method: string;
  url: string;
  doc: RouteDoc;
}

/** What every route module receives. */
export interface RouteContext extends ServiceContext {
  /** Routes with their docs, in registration order. */
  routes: DocumentedRoute[];
  /** The cache-HIT lane in front of Fastify (http/hit-lane.ts). */
  lane: HitLane;
  ready: { value: boolean };
  /** The per-client rate limiter (null when RATE_LIMIT_ENABLED=false). */
  limiter: ClientLimiter | null;
}

/** `/api/v1/cities/{city}` -> `/api/v1/cities/:city` */
export function toFastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * The city segment of a request's path, as sent: every path family names it `{city}` (data lists,
 * live paths and their literal families, `/stream`, `/history`, overview, coverage), and every
 * reader resolves it with cities/resolve.ts, so one spelling reaches the same city on every path.
 */
export function cityParam(req: FastifyRequest): string {
  return (req.params as { city?: string }).city ?? '';
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** One budget of kept views per app (PREPARED_VIEW_MEMORY_MB), shared by its routes. */
const keptByRuntime = new WeakMap<Runtime, KeptViews>();

/** A route's composed answers kept as bytes while nothing they show changes (http/prepared-views.ts). */
export function preparedViews(ctx: RouteContext, route: string, cacheControl: string, vary?: string): PreparedViews {
  const { rt, lane } = ctx;
  let kept = keptByRuntime.get(rt);
  if (!kept) {
    kept = keptViews(rt.config.preparedViewMemoryMb * 1024 * 1024);
    keptByRuntime.set(rt, kept);
  }
  return new PreparedViews(route, cacheControl, {
    version: () => rt.health.changes.version,
    maxAgeMs: rt.config.preparedViewMs,
    lane,
    kept,
    observe: (r) => laneObserver(rt, r),
    ...(vary ? { vary } : {}),
  });
}

/** Counts a request the lane answered for `route` in the request metrics (tallied: the lane's hot path). */
export function laneObserver(rt: Runtime, route: string): LaneTarget['observe'] {
  const ok = rt.metrics.requestChild('GET', route, 200);
  const notModified = rt.metrics.requestChild('GET', route, 304);
  const counts = { 200: rt.metrics.tally(ok.count), 304: rt.metrics.tally(notModified.count) };
  return (status, seconds) => {
    // A refusal is rare: counted as the router's onResponse hook counts it (http/errors.ts).
    if (status === 429) return rt.metrics.observeRequest('GET', route, 429, seconds);
    counts[status].n++;
    (status === 200 ? ok : notModified).duration.observe(seconds);
  };
}
