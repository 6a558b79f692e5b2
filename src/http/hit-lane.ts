import type { IncomingMessage, ServerResponse } from 'node:http';
// The module's binding, not the global: `performance` on globalThis is an accessor, looked up at each use.
import { performance } from 'node:perf_hooks';
import { channelOf } from './pagination.ts';
import type { ClientLimiter } from './rate-limit.ts';
import { countRequest, rateLimited, setHeaderList } from './request-guard.ts';
import { problemAnswer } from './errors.ts';
import { acceptsOtherThanJson } from './formats/negotiate.ts';
import { clientAddress, type ProxyTrust } from './client-address.ts';
import { CompressionPolicy, ENCODING_VARY, notModifiedFor, type Representation } from './encodings.ts';
import { BoundedMap } from '../core/bounded-map.ts';

/** A prepared answer (the pipeline's, see pipeline/cache.ts): the exact bytes Fastify's full path would send, and their ETag. */
export interface Prepared extends Representation {
  /** Headers of this answer alone (a cache entry's HIT and STALE answers differ in Cache-Status). */
  readonly headers?: readonly (readonly [string, string])[];
}

/** The raw header lists of one form of a prepared answer, CORS headers first. */
interface LaneHeaders {
  cors: readonly string[];
  ok: string[];
  notModified: string[];
}

/** Header lists per form of a prepared answer (identity, gzip, brotli), built at its first lane use and gone with it. */
const headerLists = new WeakMap<Representation, LaneHeaders>();

/** One data route for one city, as the lane serves it. */
export interface LaneTarget {
  /** The prepared answer the full path would give now; null sends the request through Fastify. */
  current(): Prepared | null;
  /** Headers of the answer besides Content-Type, ETag and Content-Length, as [name, value] pairs (CORS and nosniff come from the server). */
  readonly headers: readonly (readonly [string, string])[];
  /** Counts one answer in the request metrics, as the router's onResponse hook counts its own (http/errors.ts). */
  observe(status: 200 | 304 | 429, seconds: number): void;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** Longer URLs (a query string the type ignores can be any size) stay with Fastify. */
const MAX_URL_LENGTH = 512;
/** What a URL is charged besides its characters: the Map entry and, for a composed view, its own target object. */
const URL_OVERHEAD_BYTES = 512;

/** How the lane answers as the router does: the same header, client-address and compression rules. */
export interface LaneRules {
  /** CORS and security headers per request (http/cors.ts corsHeaderList, which the router's wrapper writes too). */
  cors: (headers: Record<string, string | string[] | undefined>) => readonly string[];
  /** TRUST_PROXY as Fastify applies it (http/client-address.ts). */
  trust: ProxyTrust | false;
  compression: CompressionPolicy;
}

/**
 * The cache-HIT lane in front of Fastify. A request URL that Fastify once answered with a prepared
 * HIT (see routes/data-types.ts) is answered here from the same bytes while the entry is fresh:
 * no routing, no request/reply objects, no hooks. Under 64 connections those per-request costs
 * doubled the user CPU of a HIT compared with a bare route (bench/README.md). Anything else (other
 * methods, another channel, a stale entry, an unknown URL) goes on to Fastify unchanged. What the
 * router's hooks do for every answer the lane does through the same functions: CORS and nosniff
 * (corsHeaderList), the client address (clientAddress), the rate limit and its headers
 * (countRequest), the 429 problem (problemAnswer), metrics (the route's counters) and the
 * compressed forms (CompressionPolicy).
 */
export class HitLane {
  /** Only URLs that Fastify already answered with a prepared HIT get in; a client chooses them, so a byte budget holds them. */
  private readonly urls: BoundedMap<string, LaneTarget>;
  private limiter: ClientLimiter | null = null;
  readonly compression: CompressionPolicy;

  private readonly rules: LaneRules;
  constructor(rules: LaneRules = { cors: () => [], trust: false, compression: new CompressionPolicy(false, 0) }, maxBytes = 8 * 1024 * 1024) {
    this.rules = rules;
    this.compression = rules.compression;
    this.urls = new BoundedMap(maxBytes, (url) => url.length + URL_OVERHEAD_BYTES);
  }

  /** The per-client rate limit, shared with the router's guard (http/request-guard.ts): one budget per client for both paths. */
  admitWith(limiter: ClientLimiter | null) {
    this.limiter = limiter;
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
   * The prepared answer for a request, or null when Fastify must answer it: another method, a URL
   * Fastify never answered with a prepared HIT, another channel, a stale entry.
   */
  private find(method: string | undefined, url: string, headers: Record<string, string | string[] | undefined>): LaneAnswer | null {
    if (method !== 'GET') return null;
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

  /** The header lists of the form `sent` of an answer for a request with these headers (its Origin decides the CORS part). */
  private headersOf(a: LaneAnswer, sent: Representation, headers: Record<string, string | string[] | undefined>): LaneHeaders {
    const cors = this.rules.cors(headers);
    let prepared = headerLists.get(sent);
    if (!prepared) {
      prepared = laneHeaders(a, sent, cors, this.compression.varies(a.hit.body.length));
      headerLists.set(sent, prepared);
    }
    return prepared.cors === cors ? prepared : withCorsList(prepared, cors);
  }

  /** Answers and returns true, or returns false and leaves the request untouched. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const found = this.find(req.method, req.url ?? '', req.headers);
    if (found === null) return false;
    const limiter = this.limiter;
    if (limiter === null) {
      this.respond(req, res, found);
      return true;
    }
    countRequest(limiter, clientAddress(req, this.rules.trust), (s, limitHeaders) => {
      if (!s.exceeded) return this.respond(req, res, found, limitHeaders);
      setHeaderList(res, limitHeaders);
      refuse(req, res, s.resetS, this.rules.cors(req.headers));
      found.target.observe(429, (performance.now() - found.started) / 1000);
    });
    return true;
  }

  /**
   * Sends the answer in the coding the request accepts (its compressed bytes are made once per
   * answer), with `extra` (the RateLimit headers) joined to the head in one writeHead: setHeader
   * before writeHead takes Node's slower header-merging path.
   */
  private respond(req: IncomingMessage, res: ServerResponse, a: LaneAnswer, extra: readonly string[] | null = null) {
    const sent = this.compression.choose(a.hit, req.headers['accept-encoding']);
    if (!(sent instanceof Promise)) return answer(req, res, a, sent, this.headersOf(a, sent, req.headers), extra);
    sent.then(
      (s) => answer(req, res, a, s, this.headersOf(a, s, req.headers), extra),
      () => answer(req, res, a, a.hit, this.headersOf(a, a.hit, req.headers), extra),
    );
  }
}

/** A prepared answer found for a request. */
interface LaneAnswer {
  target: LaneTarget;
  hit: Prepared;
  /** performance.now() when the lane took the request, for the request metrics. */
  started: number;
}

/** The 429 problem of an exhausted client, as the router's error handler sends it (http/errors.ts). */
function refuse(req: IncomingMessage, res: ServerResponse, resetS: number, cors: readonly string[]) {
  const problem = problemAnswer(rateLimited(resetS), req.url ?? '');
  const body = JSON.stringify(problem.body);
  for (let i = 0; i < cors.length; i += 2) res.setHeader(cors[i] ?? '', cors[i + 1] ?? '');
  res.writeHead(429, { ...problem.headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function answer(req: IncomingMessage, res: ServerResponse, a: LaneAnswer, sent: Representation, headers: LaneHeaders, extra: readonly string[] | null) {
  if (res.destroyed) return;
  if (notModifiedFor(req.headers['if-none-match'], sent, a.hit)) {
    res.writeHead(304, extra ? headers.notModified.concat(extra) : headers.notModified);
    res.end();
    a.target.observe(304, (performance.now() - a.started) / 1000);
    return;
  }
  res.writeHead(200, extra ? headers.ok.concat(extra) : headers.ok);
  res.end(sent.body);
  a.target.observe(200, (performance.now() - a.started) / 1000);
}

function withCorsList(h: LaneHeaders, cors: readonly string[]): LaneHeaders {
  const strip = h.cors.length;
  return { cors, ok: [...cors, ...h.ok.slice(strip)], notModified: [...cors, ...h.notModified.slice(strip)] };
}

/** The target's headers, with `accept-encoding` joined to its Vary when the answer could be compressed (as http/send.ts adds it). */
function targetHeaders(target: LaneTarget, varies: boolean): (readonly [string, string])[] {
  const out = [...target.headers];
  if (!varies) return out;
  const i = out.findIndex(([k]) => k === 'vary');
  const vary = out[i];
  if (vary === undefined) out.push(['vary', ENCODING_VARY]);
  else if (!vary[1].toLowerCase().includes(ENCODING_VARY)) out[i] = ['vary', `${vary[1]}, ${ENCODING_VARY}`];
  return out;
}

function laneHeaders(a: LaneAnswer, sent: Representation, cors: readonly string[], varies: boolean): LaneHeaders {
  const notModified: string[] = [...cors];
  for (const [k, v] of targetHeaders(a.target, varies)) notModified.push(k, v);
  for (const [k, v] of a.hit.headers ?? []) notModified.push(k, v);
  notModified.push('etag', sent.etag);
  const ok = [...notModified, 'content-type', JSON_TYPE, 'content-length', String(sent.body.length)];
  if (sent.encoding) ok.push('content-encoding', sent.encoding);
  return { cors, notModified, ok };
}
