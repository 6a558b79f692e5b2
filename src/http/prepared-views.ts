import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf } from './conditional.ts';
import type { HitLane, LaneTarget, Prepared } from './hit-lane.ts';
import { CHANNEL_VARY, channelOf, pageLinkHeader, type PaginationMeta } from './pagination.ts';
import { addVary, sendPrepared } from './send.ts';
import { ENCODING_VARY } from './encodings.ts';
import { BoundedMap } from '../core/bounded-map.ts';

/** A composed answer as a route computes it (city list, sources, overview, compare). */
export interface ViewAnswer {
  body: string;
  /** The representation without per-request members, when the body has some (default: the body). */
  etagBasis?: string;
  /** meta.pagination of a paged list, for the Link header. */
  pagination?: unknown;
}

interface Kept extends Prepared {
  version: number;
  at: number;
  link: string | null;
}

/** Composed answers kept, shared by the routes of one app: a byte budget, since a client chooses the URLs. */
export type KeptViews = BoundedMap<string, Kept>;

/** What a kept answer is charged: its bytes, key, ETag and Link, plus bookkeeping (the lane's entry has its own budget). */
export function keptViews(maxBytes: number): KeptViews {
  return new BoundedMap(maxBytes, (key, v) => key.length + v.body.length + v.etag.length + (v.link?.length ?? 0) + 512);
}

export interface ViewSettings {
  /** Moves whenever something a view shows may have changed (a cache write, a source's success or failure). */
  version(): number;
  /** Longest a kept view is served while the version stands still: time alone turns fresh entries stale. */
  maxAgeMs: number;
  lane: HitLane;
  /** Where the answers are kept (keptViews), shared by every route's views. */
  kept: KeptViews;
  /** Counts one request answered by the lane (its route's metrics). */
  observe(route: string): LaneTarget['observe'];
  /** Request headers the route's answers also vary on, before the shared ones (compare: `Accept`, for CSV and GeoJSON). */
  vary?: string;
}

/**
 * Composed answers kept as bytes, per URL and channel: the same request gets the same bytes while
 * nothing it shows has changed (`version`) and for at most `maxAgeMs`, and repeat REST requests
 * take the HIT lane in front of the router. A view whose computation saw the version move (it
 * fetched, wrote the cache or changed a source's state) is sent but not kept: its statuses (MISS)
 * describe that one request.
 */
export class PreparedViews {
  private readonly observe: LaneTarget['observe'];
  private readonly kept: KeptViews;

  private readonly route: string;
  private readonly cacheControl: string;
  private readonly s: ViewSettings;
  constructor(route: string, cacheControl: string, s: ViewSettings) {
    this.route = route;
    this.cacheControl = cacheControl;
    this.s = s;
    this.observe = s.observe(route);
    this.kept = s.kept;
  }

  async send(req: FastifyRequest, reply: FastifyReply, compute: () => ViewAnswer | Promise<ViewAnswer>) {
    const channel = channelOf(req.headers);
    const key = `${this.route} ${channel} ${req.url}`;
    let view = this.current(key);
    if (!view) {
      const before = this.s.version();
      const a = await compute();
      view = {
        body: Buffer.from(a.body),
        etag: etagOf(a.etagBasis ?? a.body),
        version: before,
        at: Date.now(),
        link: pageLinkHeader(req.url, a.pagination as PaginationMeta | undefined),
      };
      if (this.s.version() === before) this.keep(key, view, channel === 'rest' ? req.url : null);
    }
    if (view.link) reply.header('link', view.link);
    reply.header('cache-control', this.cacheControl);
    addVary(reply, `${ENCODING_VARY}, ${CHANNEL_VARY}`);
    return sendPrepared(req, reply, this.s.lane.compression, view);
  }

  private current(key: string): Kept | null {
    const v = this.kept.get(key);
    return v && v.version === this.s.version() && Date.now() - v.at < this.s.maxAgeMs ? v : null;
  }

  private keep(key: string, view: Kept, laneUrl: string | null) {
    if (!this.kept.set(key, view) || laneUrl === null) return;
    const headers: [string, string][] = [
      ['cache-control', this.cacheControl],
      ['vary', `${this.s.vary ? `${this.s.vary}, ` : ''}${ENCODING_VARY}, ${CHANNEL_VARY}`],
    ];
    if (view.link) headers.push(['link', view.link]);
    this.s.lane.add(laneUrl, { current: () => this.current(key), headers, observe: this.observe });
  }
}
