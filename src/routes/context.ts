import type { RouteDoc } from '../http/route-doc.ts';
import type { ServiceContext } from '../services/context.ts';
import type { ClientLimiter } from '../http/rate-limit.ts';
import type { HitLane } from '../http/hit-lane.ts';

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

/** `/api/v1/cities/{slug}` -> `/api/v1/cities/:slug` */
export function toFastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

export const JSON_TYPE = 'application/json; charset=utf-8';
