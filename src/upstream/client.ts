import { Agent, request, type Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import { networkWords, UpstreamError } from '../core/upstream-error.ts';
import { deadline } from '../core/deadline.ts';
import type { CallOptions, UpstreamResponse } from '../core/adapter-http.ts';
import { ByteBudget, byteCap, withRedirectsAndDecoding } from './interceptors.ts';

export type { CallOptions, UpstreamResponse };

/** One answer read from an upstream (redirects followed, body decoded), as an observer sees it. */
export interface Exchange {
  method: string;
  url: string;
  /** The request body sent (form or raw), for POST calls. */
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  at: Date;
}

export interface UpstreamOptions {
  userAgent: string;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Bytes of upstream bodies all calls together may hold while reading (0 = no global cap). */
  inflightMaxBytes?: number;
}

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
 * undici with one keep-alive pool per origin and connect/headers/body timeouts; undici's own
 * interceptors follow redirects and decode gzip/deflate/br; two small ones of ours refuse a
 * redirect to another host and hold each body to its size cap (also after decoding) and to the
 * shared in-flight byte budget.
 */
export class UpstreamClient {
  readonly agent: Agent;
  readonly budget: ByteBudget;
  /** The shared pool with the redirect and decoding interceptors; a call adds its byte cap. */
  private readonly dispatcher: Dispatcher;
  private readonly observers = new Set<(e: Exchange) => void>();

  readonly opts: UpstreamOptions;
  constructor(opts: UpstreamOptions) {
    this.opts = opts;
    this.budget = new ByteBudget(opts.inflightMaxBytes ?? 0);
    this.agent = new Agent({
      connect: { timeout: opts.connectTimeoutMs },
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 32,
      pipelining: 1,
    });
    this.dispatcher = withRedirectsAndDecoding(this.agent);
  }

  /**
   * Calls `fn` with every answer read, error statuses included, before they are checked (the
   * upstream check records answers this way). Returns the function that stops observing.
   */
  observe(fn: (e: Exchange) => void): () => void {
    this.observers.add(fn);
    return () => this.observers.delete(fn);
  }

  private notify(e: Exchange) {
    for (const fn of this.observers) {
      try {
        fn(e);
      } catch {
        // An observer never changes what the caller gets.
      }
    }
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
    url: URL,
    o: CallOptions,
    t: { deadline: AbortSignal; signal: AbortSignal; timeoutMs: number; maxBytes: number },
  ): Promise<UpstreamResponse> {
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
    const pool = o.clientCertificate ? this.certificateDispatcher(o.clientCertificate) : this.dispatcher;
    const budget = this.budget.covers(t.maxBytes) ? this.budget : null;
    const method = o.method ?? (o.form || o.body !== undefined ? 'POST' : 'GET');
    try {
      const res = await request(url, {
        method,
        headers,
        body,
        dispatcher: pool.compose(byteCap(t.maxBytes, budget)),
        signal: t.signal,
        headersTimeout: t.timeoutMs,
        bodyTimeout: t.timeoutMs,
      });
      const resHeaders = flatHeaders(res.headers);
      // A redirect that reaches here is one more than the interceptor follows.
      if (res.statusCode >= 300 && res.statusCode < 400 && resHeaders.location) {
        void res.body.dump().catch(() => {});
        throw new UpstreamError('redirect', 'too many redirects', res.statusCode);
      }
      // Decoding removes content-length: a length left is the body's own (identity).
      const buf = await collect(res.body, Number(resHeaders['content-length'] ?? 0));
      // undici's redirect interceptor lists the URLs asked, the answering one last.
      const asked = (res.context as { history?: readonly URL[] } | undefined)?.history;
      const answered = (asked?.at(-1) ?? url).toString();
      if (this.observers.size > 0)
        this.notify({ method, url: answered, requestBody: body, status: res.statusCode, headers: resHeaders, body: buf, at: new Date() });
      if (res.statusCode >= 400 && !(o.okStatuses ?? []).includes(res.statusCode)) {
        const retryAfter = parseRetryAfter(resHeaders['retry-after']);
        throw new UpstreamError(res.statusCode === 429 ? 'rate_limited' : 'status', `upstream answered ${res.statusCode}`, res.statusCode, retryAfter);
      }
      return { status: res.statusCode, headers: resHeaders, body: buf, url: answered };
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      throw toUpstreamError(err, t.deadline.aborted);
    }
  }

  /** One pool per client certificate (mutual TLS), built on first use with the same limits and interceptors as the shared pool. */
  private readonly certAgents = new Map<Buffer, { agent: Agent; dispatcher: Dispatcher }>();
  private certificateDispatcher(cert: { pfx: Buffer; passphrase: string }): Dispatcher {
    let pool = this.certAgents.get(cert.pfx);
    if (!pool) {
      const agent = new Agent({
        connect: { timeout: this.opts.connectTimeoutMs, pfx: cert.pfx, passphrase: cert.passphrase },
        keepAliveTimeout: 30_000,
        keepAliveMaxTimeout: 120_000,
        connections: 8,
        pipelining: 1,
      });
      pool = { agent, dispatcher: withRedirectsAndDecoding(agent) };
      this.certAgents.set(cert.pfx, pool);
    }
    return pool.dispatcher;
  }

  async close() {
    await Promise.all([this.agent.close(), ...[...this.certAgents.values()].map((p) => p.agent.close())]);
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The body, whole. With a declared length it is read straight into one buffer of that size: a
 * 70 MB feed would otherwise exist twice (chunks + concatenation). The byte cap has already
 * refused anything longer than allowed.
 */
async function collect(stream: Readable, declared: number): Promise<Buffer> {
  let target = declared > 0 ? Buffer.allocUnsafe(declared) : null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const c = chunk as Buffer;
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
