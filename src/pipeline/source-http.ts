import { XMLParser } from 'fast-xml-parser';
import type { UpstreamClient } from '../upstream/client.ts';
import type { CallOptions, SourceHttp, UpstreamResponse } from '../core/source-http.ts';
import { UpstreamError } from '../core/upstream-error.ts';
import type { SourceDecl } from '../core/source.ts';
import type { SourceSettings } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import type { Store } from '../core/store.ts';
import type { SourceHealth } from './source-health.ts';

/**
 * The upstream client as an adapter sees it: bound to one source's configured base URL,
 * timeout, size cap and rate limit, counted in metrics and in the source's last success/failure.
 */
export class BoundSourceHttp implements SourceHttp {
  constructor(
    readonly source: SourceDecl,
    readonly settings: SourceSettings,
    private readonly client: UpstreamClient,
    private readonly metrics: Metrics,
    private readonly health: SourceHealth,
    private readonly store: Store,
    private readonly signal?: AbortSignal,
  ) {}

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

  withSignal(signal: AbortSignal): BoundSourceHttp {
    return new BoundSourceHttp(this.source, this.settings, this.client, this.metrics, this.health, this.store, signal);
  }

  /** Call a path under the source's base URL (or an absolute base from `url()`). */
  async request(path: string, o: CallOptions & { base?: string } = {}): Promise<UpstreamResponse> {
    await this.respectRateLimit();
    const started = performance.now();
    try {
      const res = await this.client.call(o.base ?? this.settings.baseUrl, path, {
        timeoutMs: this.source.timeoutMs,
        maxBytes: this.source.maxResponseBytes,
        signal: this.signal,
        ...o,
      });
      this.metrics.upstreamRequests.inc({ source: this.source.id, outcome: 'ok' });
      this.health.success(this.source.id);
      return res;
    } catch (err) {
      const kind = err instanceof UpstreamError ? err.kind : 'network';
      this.metrics.upstreamRequests.inc({ source: this.source.id, outcome: 'error' });
      this.metrics.upstreamErrors.inc({ source: this.source.id, kind });
      this.health.failure(this.source.id, err instanceof Error ? err.message : String(err));
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

  /** Cluster-wide spacing (e.g. DB's 60 calls/minute): over budget is a rate-limit failure. */
  private async respectRateLimit(): Promise<void> {
    const per = this.source.ratePerMinute;
    if (!per) return;
    const window = Math.floor(Date.now() / 60_000);
    const n = await this.store.incr(`ratelimit:${this.source.id}:${window}`, 61_000);
    if (n > per) throw new UpstreamError('rate_limited', `${this.source.id}: own rate limit of ${per}/min reached`);
  }
}
