import { Agent, request } from 'undici';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Readable } from 'node:stream';
import { networkWords, UpstreamError } from '../core/upstream-error.ts';
import { deadline } from '../core/deadline.ts';
import type { CallOptions, UpstreamResponse } from '../core/adapter-http.ts';

export type { CallOptions, UpstreamResponse };

export interface UpstreamOptions {
  userAgent: string;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Bytes of upstream bodies all calls together may hold while reading (0 = no global cap). */
  inflightMaxBytes?: number;
}

/**
 * The bytes all upstream bodies being read hold together. A call that would push the total over
 * the cap fails at once (an `overloaded` failure of ours, not the upstream's), so many large
 * answers at the same moment cannot exhaust the process.
 */
export class ByteBudget {
  used = 0;
  constructor(readonly max: number) {}
  /** Whether calls of this cap are counted: a scheduled job's download beyond the whole budget (the weekly GTFS zip) is not. */
  covers(maxBytes: number): boolean {
    return this.max > 0 && maxBytes <= this.max;
  }
  take(n: number): boolean {
    if (this.used + n > this.max) return false;
    this.used += n;
    return true;
  }
  give(n: number) {
    this.used = Math.max(0, this.used - n);
  }
}

const MAX_REDIRECTS = 3;

/** Fills `{name}` placeholders; values are always encoded, never spliced in raw. */
export function buildUrl(base: string, path: string, params: Record<string, string | number> = {}, query: CallOptions['query'] = {}): URL {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  const u = new URL(base.replace(/\/+$/, '') + (filled.startsWith('/') || filled === '' ? filled : '/' + filled));
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
  return u;
}

/**
 * undici with one keep-alive pool per origin, connect/headers/body timeouts, a size cap that
 * also applies after decompression, gzip/deflate/br decoding and same-host redirects only.
 */
export class UpstreamClient {
  readonly agent: Agent;
  readonly budget: ByteBudget;

  constructor(readonly opts: UpstreamOptions) {
    this.budget = new ByteBudget(opts.inflightMaxBytes ?? 0);
    this.agent = new Agent({
      connect: { timeout: opts.connectTimeoutMs },
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 32,
      pipelining: 1,
    });
  }

  async call(base: string, path: string, o: CallOptions = {}): Promise<UpstreamResponse> {
    const url = buildUrl(base, path, o.params, o.query);
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    const maxBytes = o.maxBytes ?? this.opts.maxResponseBytes;
    const timer = deadline(timeoutMs);
    try {
      const signal = o.signal ? AbortSignal.any([o.signal, timer.signal]) : timer.signal;
      return await this.send(url, o, { deadline: timer.signal, signal, timeoutMs, maxBytes });
    } finally {
      timer.release();
    }
  }

  /** One call with its redirects, under the call's deadline (`t.signal` also carries the caller's abort). */
  private async send(
    first: URL,
    o: CallOptions,
    t: { deadline: AbortSignal; signal: AbortSignal; timeoutMs: number; maxBytes: number },
  ): Promise<UpstreamResponse> {
    const { signal, timeoutMs, maxBytes } = t;
    let url = first;
    const headers: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      'accept-encoding': 'gzip, deflate, br',
      ...o.headers,
    };
    let body: string | undefined = o.body;
    if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    for (let hop = 0; ; hop++) {
      let res;
      try {
        res = await request(url, {
          method: o.method ?? (o.form || o.body !== undefined ? 'POST' : 'GET'),
          headers,
          body,
          dispatcher: o.clientCertificate ? this.certificateAgent(o.clientCertificate) : this.agent,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (err) {
        throw toUpstreamError(err, t.deadline.aborted);
      }
      const resHeaders = flatHeaders(res.headers);
      if (res.statusCode >= 300 && res.statusCode < 400 && resHeaders.location) {
        res.body.resume();
        const next = new URL(resHeaders.location, url);
        if (next.host !== url.host) throw new UpstreamError('redirect', 'redirect to another host refused', res.statusCode);
        if (hop >= MAX_REDIRECTS) throw new UpstreamError('redirect', 'too many redirects', res.statusCode);
        url = next;
        continue;
      }
      const declared = Number(resHeaders['content-length'] ?? 0);
      if (declared > maxBytes) {
        res.body.destroy();
        throw new UpstreamError('too_large', `response of ${declared} bytes exceeds ${maxBytes}`, res.statusCode);
      }
      let buf: Buffer;
      try {
        const identity = !resHeaders['content-encoding'] || resHeaders['content-encoding'].trim().toLowerCase() === 'identity';
        buf = await readCapped(
          decode(res.body, resHeaders['content-encoding']),
          maxBytes,
          this.budget.covers(maxBytes) ? this.budget : null,
          identity ? declared : 0,
        );
      } catch (err) {
        if (err instanceof UpstreamError) throw err;
        throw toUpstreamError(err, t.deadline.aborted);
      }
      if (res.statusCode >= 400 && !(o.okStatuses ?? []).includes(res.statusCode)) {
        const retryAfter = parseRetryAfter(resHeaders['retry-after']);
        throw new UpstreamError(res.statusCode === 429 ? 'rate_limited' : 'status', `upstream answered ${res.statusCode}`, res.statusCode, retryAfter);
      }
      return { status: res.statusCode, headers: resHeaders, body: buf, url: url.toString() };
    }
  }

  /** One pool per client certificate (mutual TLS), built on first use with the same limits as the shared pool. */
  private readonly certAgents = new Map<Buffer, Agent>();
  private certificateAgent(cert: { pfx: Buffer; passphrase: string }): Agent {
    let agent = this.certAgents.get(cert.pfx);
    if (!agent) {
      agent = new Agent({
        connect: { timeout: this.opts.connectTimeoutMs, pfx: cert.pfx, passphrase: cert.passphrase },
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 120_000,
        connections: 8,
        pipelining: 1,
      });
      this.certAgents.set(cert.pfx, agent);
    }
    return agent;
  }

  async close() {
    await Promise.all([this.agent.close(), ...[...this.certAgents.values()].map((a) => a.close())]);
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function decode(body: Readable, encoding: string | undefined): Readable {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return body.pipe(createGunzip());
    case 'deflate':
      return body.pipe(createInflate());
    case 'br':
      return body.pipe(createBrotliDecompress());
    default:
      return body;
  }
}

/**
 * The body, capped. With a declared length (and no content coding) it is read straight into
 * one buffer of that size: a 70 MB feed would otherwise exist twice (chunks + concatenation).
 */
async function readCapped(stream: Readable, max: number, budget: ByteBudget | null, declared = 0): Promise<Buffer> {
  if (budget === null) return collect(stream, max, declared, () => {});
  let held = 0;
  const hold = (n: number) => {
    if (!budget.take(n)) {
      stream.destroy();
      throw new UpstreamError('overloaded', 'too many upstream bytes in flight; call refused by this service');
    }
    held += n;
  };
  try {
    return await collect(stream, max, declared, hold);
  } finally {
    budget.give(held);
  }
}

async function collect(stream: Readable, max: number, declared: number, hold: (n: number) => void): Promise<Buffer> {
  let target = declared > 0 && declared <= max ? Buffer.allocUnsafe(declared) : null;
  if (target) hold(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const c = chunk as Buffer;
    if (size + c.length > max) {
      stream.destroy();
      throw new UpstreamError('too_large', `response exceeds ${max} bytes`);
    }
    if (!target || size + c.length > target.length) hold(c.length);
    if (target && size + c.length > target.length) {
      // More than declared: fall back to collecting chunks.
      chunks.push(target.subarray(0, size));
      target = null;
    }
    if (target) c.copy(target, size);
    else chunks.push(c);
    size += c.length;
  }
  if (target) return size === target.length ? target : target.subarray(0, size);
  return Buffer.concat(chunks, size);
}

export function parseRetryAfter(v: string | undefined): number | undefined {
  if (!v) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

function toUpstreamError(err: unknown, timedOut: boolean): UpstreamError {
  const e = err as { code?: string; name?: string; message?: string };
  if (
    timedOut ||
    e.name === 'TimeoutError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT' ||
    e.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new UpstreamError('timeout', 'upstream did not answer in time');
  }
  return new UpstreamError('network', `network error: ${networkWords(e.code)}`);
}
