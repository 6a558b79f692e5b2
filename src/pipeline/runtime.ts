import type { FastifyBaseLogger } from 'fastify';
import type { Config, SourceSettings } from '../core/config.ts';
import type { Store } from '../core/store.ts';
import type { Metrics } from '../metrics.ts';
import type { Breakers } from './breakers.ts';
import type { SourceHealth } from './source-health.ts';
import { BoundSourceHttp } from './source-http.ts';
import { RateGate } from './rate-gate.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { SourceDecl } from '../core/source.ts';
import type { Catalog } from '../catalog/index.ts';
import { standInForm, type Form } from '../core/forms.ts';
import type { ScheduledJob } from '../core/job.ts';
import { watchedJob } from './format-drift.ts';
import type { HistorySink } from '../core/history-sink.ts';

/** Everything the pipeline, routes, jobs and MCP share inside one app instance. */
export class Runtime {
  private readonly httpBySource = new Map<string, BoundSourceHttp>();
  /** Where fresh values of recordable types go (the history recorder; null when HISTORY_ENABLED=false). */
  history: HistorySink | null = null;

  readonly config: Config;
  readonly store: Store;
  readonly metrics: Metrics;
  readonly breakers: Breakers;
  readonly health: SourceHealth;
  readonly upstream: UpstreamClient;
  readonly catalog: Catalog;
  readonly log: FastifyBaseLogger;
  constructor(
    config: Config,
    store: Store,
    metrics: Metrics,
    breakers: Breakers,
    health: SourceHealth,
    upstream: UpstreamClient,
    catalog: Catalog,
    log: FastifyBaseLogger,
  ) {
    this.config = config;
    this.store = store;
    this.metrics = metrics;
    this.breakers = breakers;
    this.health = health;
    this.upstream = upstream;
    this.catalog = catalog;
    this.log = log;
  }

  http(src: SourceDecl): BoundSourceHttp {
    let h = this.httpBySource.get(src.id);
    if (!h) {
      const gate = new RateGate(this.store, src, this.config.requestBudgetMs);
      h = new BoundSourceHttp(src, this.settings(src), this.upstream, this.metrics, this.health, gate);
      this.httpBySource.set(src.id, h);
    }
    return h;
  }

  /** The settings config derived for `src`; every source the config was loaded with has them. */
  settings(src: SourceDecl): SourceSettings {
    const s = this.config.sources[src.id];
    if (!s) throw new Error(`source ${src.id} is not in the loaded config`);
    return s;
  }

  /**
   * What answers a primary's form (core/forms.ts) on this server: the form itself when its
   * source is usable, else its stand-in's when that one is usable, else null (`disabled`).
   */
  answering(form: Form): Form | null {
    if (this.sourceEnabled(form.source)) return form;
    const standIn = form.standIn?.role === 'stand-in' ? standInForm(form) : null;
    return standIn && this.sourceEnabled(standIn.source) ? standIn : null;
  }

  /** The failover that answers while `form`'s source fails, when it is usable, else null. */
  failover(form: Form): Form | null {
    if (form.standIn?.role !== 'failover') return null;
    const standIn = standInForm(form);
    return standIn && this.sourceEnabled(standIn.source) ? standIn : null;
  }

  /** See JobHost.jobFinished: format drift of the sources a job writes for (pipeline/format-drift.ts). */
  jobFinished(job: ScheduledJob, failure: unknown) {
    watchedJob(this, job, failure);
  }

  sourceEnabled(src: SourceDecl): boolean {
    const s = this.settings(src);
    return s.enabled && s.missingCredentials.length === 0;
  }
}
