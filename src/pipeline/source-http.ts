import { XMLParser } from 'fast-xml-parser';
import type { UpstreamClient } from '../upstream/client.ts';
import type { CallOptions, SourceHttp, UpstreamResponse } from '../core/adapter-http.ts';
import { isUpstreamFault, UpstreamError } from '../core/upstream-error.ts';
import type { SourceDecl } from '../core/source.ts';
import type { SourceSettings } from '../core/config.ts';
import type { Metrics } from '../metrics.ts';
import type { SourceHealth } from './source-health.ts';
import type { RateGate } from './rate-gate.ts';
import { hostOf, type BreakerScope, type Breakers } from './breakers.ts';

/** The breakers a fetch's calls go through, and the fetch they count for (see Breakers.run). */
export interface Breaking {
  breakers: Breakers;
  scope: BreakerScope;
}

/**
 * The upstream client as an adapter sees it: bound to one source's configured base URL,
 * timeout, size cap and rate limit, counted in metrics and in the source's last success/failure.
 * Bound to a fetch (`breaking`), every call goes through the breaker of the host it calls:
 * derived here from the URL, so no adapter names its hosts.
 */
export class BoundSourceHttp implements SourceHttp {
  readonly source: SourceDecl;
  readonly settings: SourceSettings;
  private readonly client: UpstreamClient;
  private readonly metrics: Metrics;
  private readonly health: SourceHealth;
  private readonly gate: RateGate;
  private readonly signal?: AbortSignal;
  private readonly breaking?: Breaking;
  constructor(
    source: SourceDecl,
    settings: SourceSettings,
    client: UpstreamClient,
    metrics: Metrics,
    health: SourceHealth,
    gate: RateGate,
    signal?: AbortSignal,
    breaking?: Breaking,
  ) {
    this.source = source;
    this.settings = settings;
    this.client = client;
    this.metrics = metrics;
    this.health = health;
    this.gate = gate;
    this.signal = signal;
    this.breaking = breaking;
  }

  get baseUrl(): string {
    return this.settings.baseUrl;
  }
  url(key: string): string {
    const u = this.settings.urls[key];
    if (!u) throw new Error(`source ${this.source.id} has no url "${key}"`);
    return u;
  }
  credential(name: string): string {
    return this.settings.credentials[name] ?? '';
  }

  withSignal(signal: AbortSignal, breaking?: Breaking): BoundSourceHttp {
    return new BoundSourceHttp(this.source, this.settings, this.client, this.metrics, this.health, this.gate, signal, breaking ?? this.breaking);
  }

  /** Call a path under the source's base URL (or an absolute base from `url()`). */
  async request(path: string, o: CallOptions & { base?: string } = {}): Promise<UpstreamResponse> {
    const base = o.base ?? this.settings.baseUrl;
    const host = hostOf(base);
    const b = this.breaking;
    if (b && host) await b.breakers.guard(this.source, host, b.scope);
    try {
      await this.gate.pass(this.signal);
    } catch (err) {
      this.metrics.upstreamErrors.inc({ source: this.source.id, kind: err instanceof UpstreamError ? err.kind : 'aborted' });
      throw err;
    }
    const started = performance.now();
    try {
      const res = await this.client.call(base, path, {
        timeoutMs: this.source.timeoutMs,
        maxBytes: this.source.maxResponseBytes,
        signal: this.signal,
        ...o,
      });
      this.metrics.upstreamRequests.inc({ source: this.source.id, outcome: 'ok' });
      this.health.success(this.source.id);
      if (b && host) b.scope.note(this.source, host);
      return res;
    } catch (err) {
      const kind = err instanceof UpstreamError ? err.kind : 'network';
      this.metrics.upstreamRequests.inc({ source: this.source.id, outcome: 'error' });
      this.metrics.upstreamErrors.inc({ source: this.source.id, kind });
      // A 4xx to user input or our own refusal says nothing about the source's health.
      if (isUpstreamFault(err)) this.health.failure(this.source.id, err instanceof UpstreamError ? err.message : 'request failed');
      if (b && host) b.breakers.failed(this.source, host, err, b.scope);
      throw err;
    } finally {
      this.metrics.upstreamDuration.observe({ source: this.source.id }, (performance.now() - started) / 1000);
    }
  }

  async json<T = unknown>(path: string, o: CallOptions & { base?: string } = {}): Promise<T> {
    const res = await this.request(path, { ...o, headers: { accept: 'application/json', ...o.headers } });
    try {
      return JSON.parse(res.body.toString('utf8')) as T;
    } catch {
      this.health.failure(this.source.id, 'unparseable JSON');
      throw new UpstreamError('parse', `unparseable JSON from ${this.source.id}`, res.status);
    }
  }

  async text(path: string, o: CallOptions & { base?: string; encoding?: BufferEncoding | 'latin1' } = {}): Promise<string> {
    const res = await this.request(path, o);
    return res.body.toString(o.encoding ?? 'utf8');
  }

  async xml<T = unknown>(path: string, o: CallOptions & { base?: string } = {}): Promise<T> {
    const body = await this.text(path, { ...o, headers: { accept: 'application/xml', ...o.headers } });
    try {
      return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, parseTagValue: false }).parse(body) as T;
    } catch {
      throw new UpstreamError('parse', `unparseable XML from ${this.source.id}`);
    }
  }
}
