import type { IncomingMessage, ServerResponse } from 'node:http';
import { ifNoneMatchMatches } from './conditional.ts';
import { channelOf } from './pagination.ts';
import { ClientLimiter, type LimitState } from './rate-limit.ts';
import { rateLimited } from './request-guard.ts';
import { problemHeaders } from './client-errors.ts';
import { acceptsOtherThanJson } from './formats/negotiate.ts';
import { BoundedMap } from '../core/bounded-map.ts';

/** A prepared answer (the pipeline's, see pipeline/cache.ts): the exact bytes Fastify's full path would send, and their ETag. */
export interface Prepared {
  readonly body: Buffer;
  readonly etag: string;
  /** Headers of this answer alone (a cache entry's HIT and STALE answers differ in Cache-Status). */
  readonly headers?: readonly (readonly [string, string])[];
}

/** The raw header lists of a prepared answer, CORS headers first. */
interface LaneHeaders {
  cors: readonly string[];
  ok: string[];
  notModified: string[];
}

/** Header lists per prepared answer, built at its first lane use and gone with the answer. */
const headerLists = new WeakMap<Prepared, LaneHeaders>();

/** One data route for one city, as the lane serves it. */
export interface LaneTarget {
  /** The prepared answer the full path would give now; null sends the request through Fastify. */
  current(): Prepared | null;
  /** Headers of the answer besides Content-Type, ETag and Content-Length, as [name, value] pairs (CORS and nosniff come from the server). */
  readonly headers: readonly (readonly [string, string])[];
  /** Counts one answer in the request metrics (status 200 or 304). */
  observe(status: 200 | 304, seconds: number): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Longer URLs (a query string the type ignores can be any size) stay with Fastify. */
const MAX_URL_LENGTH = 512;
/** What a URL is charged besides its characters: the Map entry and, for a composed view, its own target object. */
const URL_OVERHEAD_BYTES = 512;

/**
 * The cache-HIT lane in front of Fastify. A request URL that Fastify once answered with a prepared
 * HIT (see routes/data-types.ts) is answered here from the same bytes while the entry is fresh:
 * no routing, no request/reply objects, no hooks. Under 64 connections those per-request costs
 * doubled the user CPU of a HIT compared with a bare route (bench/README.md). Anything else (other
 * methods, another channel, a stale entry, an unknown URL) goes on to Fastify unchanged.
 */
export class HitLane {
  /** Only URLs that Fastify already answered with a prepared HIT get in; a client chooses them, so a byte budget holds them. */
  private readonly urls: BoundedMap<string, LaneTarget>;
  private limiter: ClientLimiter | null = null;

  /**
   * The per-client rate limit applies here as in Fastify's guard (http/request-guard.ts), with
   * the same headers and 429 problem. The client is the socket's peer: behind a trusted proxy
   * (TRUST_PROXY) the lane stays off and Fastify, which reads X-Forwarded-For, answers instead.
   */
  admitWith(limiter: ClientLimiter | null, trustProxy: unknown = false) {
    this.limiter = limiter;
    this.enabled = trustProxy === false || limiter === null;
  }
  private enabled = true;

  /** The lane runs before the CORS wrapper (http/cors.ts) and writes the same headers itself. */
  constructor(
    private readonly cors: (headers: Record<string, string | string[] | undefined>) => readonly string[] = () => [],
    maxBytes = 8 * 1024 * 1024,
  ) {
    this.urls = new BoundedMap(maxBytes, (url) => url.length + URL_OVERHEAD_BYTES);
  }

  /** `url` as it arrived (path and query): later requests for exactly that URL take the lane. */
  add(url: string, target: LaneTarget) {
    if (url.length > MAX_URL_LENGTH || this.urls.get(url) === target) return;
    this.urls.set(url, target);
  }

  get size(): number {
    return this.urls.size;
  }

  /**
   * The prepared answer for a request, or null when Fastify must answer it: another method, the
   * lane off, a URL Fastify never answered with a prepared HIT, another channel, a stale entry.
   */
  private find(method: string | undefined, url: string, headers: Record<string, string | string[] | undefined>): LaneAnswer | null {
    if (method !== 'GET' || !this.enabled) return null;
    const target = this.urls.get(url);
    if (!target) return null;
    // A Server-Sent Events request (EventSource sends this Accept) is answered by the data route's stream.
    if (headers.accept?.includes('text/event-stream')) return null;
    const started = performance.now();
    if (channelOf(headers) !== 'rest') return null;
    // The lane holds JSON bytes only: CSV and GeoJSON (and a 406) come from the router.
    if (acceptsOtherThanJson(headers.accept)) return null;
    const hit = target.current();
    return hit ? { target, hit, started } : null;
  }

  /** The answer's header lists for a request with these headers (its Origin decides the CORS part). */
  private headersOf(a: LaneAnswer, headers: Record<string, string | string[] | undefined>): LaneHeaders {
    const cors = this.cors(headers);
    let prepared = headerLists.get(a.hit);
    if (!prepared) {
      prepared = laneHeaders(a.target, a.hit, cors);
      headerLists.set(a.hit, prepared);
    }
    return prepared.cors === cors ? prepared : withCorsList(prepared, cors);
  }

  /** Answers and returns true, or returns false and leaves the request untouched. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const found = this.find(req.method, req.url ?? '', req.headers);
    if (found === null) return false;
    const limiter = this.limiter;
    if (limiter === null) {
      answer(req, res, found, this.headersOf(found, req.headers));
      return true;
    }
    limiter.consume(limiter.keyOf(req.socket.remoteAddress), 1, (s) => {
      res.setHeader('ratelimit-policy', limiter.policyHeader);
      res.setHeader('ratelimit', ClientLimiter.header(s));
      if (s.exceeded) refuse(res, s, this.cors(req.headers));
      else answer(req, res, found, this.headersOf(found, req.headers));
    });
    return true;
  }
}

/** A prepared answer found for a request. */
interface LaneAnswer {
  target: LaneTarget;
  hit: Prepared;
  /** performance.now() when the lane took the request, for the request metrics. */
  started: number;
}

/** Whether the request's If-None-Match names the answer's ETag: then it is a 304. */
function notModified(a: LaneAnswer, ifNoneMatch: string | undefined): boolean {
  return ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, a.hit.etag);
}

/** The 429 problem of an exhausted client, as the router's guard sends it (http/request-guard.ts). */
function refuse(res: ServerResponse, s: LimitState, cors: readonly string[]) {
  const problem = rateLimited(s.resetS).body();
  delete problem.retry_after_ms;
  const body = JSON.stringify(problem);
  const headers = { ...problemHeaders(problem), 'retry-after': String(Math.max(1, s.resetS)) };
  for (let i = 0; i < cors.length; i += 2) res.setHeader(cors[i] ?? '', cors[i + 1] ?? '');
  res.writeHead(429, headers);
  res.end(body);
}

function answer(req: IncomingMessage, res: ServerResponse, a: LaneAnswer, headers: LaneHeaders) {
  if (notModified(a, req.headers['if-none-match'])) {
    res.writeHead(304, headers.notModified);
    res.end();
    a.target.observe(304, (performance.now() - a.started) / 1000);
    return;
  }
  res.writeHead(200, headers.ok);
  res.end(a.hit.body);
  a.target.observe(200, (performance.now() - a.started) / 1000);
}

function withCorsList(h: LaneHeaders, cors: readonly string[]): LaneHeaders {
  const strip = h.cors.length;
  return { cors, ok: [...cors, ...h.ok.slice(strip)], notModified: [...cors, ...h.notModified.slice(strip)] };
}

function laneHeaders(target: LaneTarget, hit: Prepared, cors: readonly string[]): LaneHeaders {
  const notModified: string[] = [...cors];
  for (const [k, v] of target.headers) notModified.push(k, v);
  for (const [k, v] of hit.headers ?? []) notModified.push(k, v);
  notModified.push('etag', hit.etag);
  return { cors, notModified, ok: [...notModified, 'content-type', JSON_TYPE, 'content-length', String(hit.body.length)] };
}
