import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Store } from '../store/types.ts';
import type { Metrics } from '../metrics.ts';
import type { Breakers } from './breakers.ts';
import type { SourceHealth } from './source-health.ts';
import { SourceHttp } from './source-http.ts';
import { RateGate } from './rate-gate.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { SourceDecl } from '../sources/types.ts';
import type { Catalog } from '../catalog/index.ts';

/** Everything the pipeline, routes, jobs and MCP share inside one app instance. */
export class Runtime {
  private readonly httpBySource = new Map<string, SourceHttp>();

  constructor(
    readonly config: Config,
    readonly store: Store,
    readonly metrics: Metrics,
    readonly breakers: Breakers,
    readonly health: SourceHealth,
    readonly upstream: UpstreamClient,
    readonly catalog: Catalog,
    readonly log: FastifyBaseLogger,
  ) {}

  http(src: SourceDecl): SourceHttp {
    let h = this.httpBySource.get(src.id);
    if (!h) {
      const gate = new RateGate(this.store, src, this.config.requestBudgetMs);
      h = new SourceHttp(src, this.config.sources[src.id], this.upstream, this.metrics, this.health, gate);
      this.httpBySource.set(src.id, h);
    }
    return h;
  }

  sourceEnabled(src: SourceDecl): boolean {
    const s = this.config.sources[src.id];
    return s.enabled && s.missingCredentials.length === 0;
  }
}
