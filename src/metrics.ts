import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A count kept as a plain number until the metrics are read (see Metrics.tally). */
export interface Tally {
  n: number;
}

/** Prometheus metrics of one app instance (own registry, so tests can build many apps). */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
    collect: () => this.foldTallies(),
  });
  readonly httpDuration = new LocalHistogram(
    'http_request_duration_seconds',
    'HTTP request latency by route',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    this.registry,
  );
  readonly upstreamRequests = new Counter({
    name: 'stadtdaten_upstream_requests_total',
    help: 'Upstream calls by source and outcome',
    labelNames: ['source', 'outcome'],
    registers: [this.registry],
  });
  readonly upstreamDuration = new Histogram({
    name: 'stadtdaten_upstream_request_duration_seconds',
    help: 'Upstream call latency by source',
    labelNames: ['source'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly upstreamErrors = new Counter({
    name: 'stadtdaten_upstream_errors_total',
    help: 'Upstream failures by source and kind',
    labelNames: ['source', 'kind'],
    registers: [this.registry],
  });
  readonly cacheResults = new Counter({
    name: 'stadtdaten_cache_results_total',
    help: 'Cache statuses served by data type',
    labelNames: ['type', 'cache_status'],
    registers: [this.registry],
    collect: () => this.foldTallies(),
  });
  readonly formatDrift = new Counter({
    name: 'stadtdaten_format_drift_total',
    help: 'Fetches whose upstream answer the adapter or the record schema rejected (format drift), by source',
    labelNames: ['source'],
    registers: [this.registry],
  });
  readonly breakerState = new Gauge({
    name: 'stadtdaten_circuit_state',
    help: 'Breaker state per source and upstream host (0 closed, 1 half-open, 2 open)',
    labelNames: ['source', 'host'],
    registers: [this.registry],
  });
  readonly sourceEnabled = new Gauge({
    name: 'stadtdaten_source_enabled',
    help: 'Source enabled (1) or disabled (0)',
    labelNames: ['source'],
    registers: [this.registry],
  });
  readonly jobRuns = new Counter({
    name: 'stadtdaten_job_runs_total',
    help: 'Background job runs by job and outcome',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });

  /** Open Server-Sent Events streams and polled stream keys of this instance: the stream hub sets it (routes/streams.ts). */
  streamStats: () => { open: number; keys: number } = () => ({ open: 0, keys: 0 });
  readonly streamsOpen: Gauge = new Gauge({
    name: 'stadtdaten_streams_open',
    help: 'Open Server-Sent Events streams on this instance',
    registers: [this.registry],
    collect: (): void => this.streamsOpen.set(this.streamStats().open),
  });
  readonly streamKeys: Gauge = new Gauge({
    name: 'stadtdaten_stream_keys',
    help: 'Stream keys (type, city, parameters) with subscribers, and so a poller, on this instance',
    registers: [this.registry],
    collect: (): void => this.streamKeys.set(this.streamStats().keys),
  });

  /** The history recorder's buffer: points kept while its store is away, and those dropped from a full buffer (app.ts sets it). */
  historyStats: () => { buffered: number; dropped: number } = () => ({ buffered: 0, dropped: 0 });
  readonly historyBuffered: Gauge = new Gauge({
    name: 'stadtdaten_history_points_buffered',
    help: 'History points kept in memory while the history store does not answer',
    registers: [this.registry],
    collect: (): void => this.historyBuffered.set(this.historyStats().buffered),
  });
  private historyDroppedSeen = 0;
  readonly historyDropped: Counter = new Counter({
    name: 'stadtdaten_history_points_dropped_total',
    help: 'History points dropped, oldest first, from a full buffer while the history store did not answer (HISTORY_BUFFER_POINTS)',
    registers: [this.registry],
    collect: (): void => {
      const dropped = this.historyStats().dropped;
      if (dropped > this.historyDroppedSeen) this.historyDropped.inc(dropped - this.historyDroppedSeen);
      this.historyDroppedSeen = dropped;
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  // Label children are cached: hashing label objects on every request shows up on a cache HIT.
  private readonly requestChildren = new Map<string, { count: { inc(n?: number): void }; duration: { observe(v: number): void } }>();
  private readonly cacheChildren = new Map<string, { inc(n?: number): void }>();

  observeRequest(method: string, route: string, status: number, seconds: number) {
    const c = this.requestChild(method, route, status);
    c.count.inc();
    c.duration.observe(seconds);
  }

  /** The label children of one method/route/status, for a caller that observes without a lookup per request. */
  requestChild(method: string, route: string, status: number): { count: { inc(n?: number): void }; duration: { observe(v: number): void } } {
    const key = `${method} ${route} ${status}`;
    let c = this.requestChildren.get(key);
    if (!c) {
      const labels = { method, route, status: String(status) };
      c = { count: this.httpRequests.labels(labels), duration: this.httpDuration.child(labels) };
      this.requestChildren.set(key, c);
    }
    return c;
  }

  /** The cache-result counter child of one data type and status (see requestChild). */
  cacheChild(type: string, status: string): { inc(n?: number): void } {
    const key = `${type} ${status}`;
    let c = this.cacheChildren.get(key);
    if (!c) {
      c = this.cacheResults.labels({ type, cache_status: status });
      this.cacheChildren.set(key, c);
    }
    return c;
  }

  private readonly tallies: { tally: Tally; child: { inc(n?: number): void } }[] = [];

  /**
   * A counter increment for a hot path: adding to a plain number costs nothing, while a prom-client
   * child hashes its labels on every increment. Tallies are folded in whenever the metrics are read.
   */
  tally(child: { inc(n?: number): void }): Tally {
    const tally = { n: 0 };
    this.tallies.push({ tally, child });
    return tally;
  }

  private foldTallies() {
    for (const { tally, child } of this.tallies) {
      if (tally.n === 0) continue;
      child.inc(tally.n);
      tally.n = 0;
    }
  }

  countCache(type: string, status: string) {
    this.cacheChild(type, status).inc();
  }
}

/** One label set of a LocalHistogram: bucket counts (not cumulative), sum and count. */
class HistogramChild {
  readonly counts: number[];
  sum = 0;
  count = 0;
  readonly labels: Record<string, string>;
  private readonly bounds: readonly number[];
  constructor(labels: Record<string, string>, bounds: readonly number[]) {
    this.labels = labels;
    this.bounds = bounds;
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }
  observe(v: number) {
    let i = 0;
    while (i < this.bounds.length && v > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.sum += v;
    this.count++;
  }
}

/**
 * A Prometheus histogram whose children observe with a few additions: prom-client's histogram
 * hashes its labels on every observation, a noticeable share of a cache HIT (bench/README.md, "Figures behind code comments"). Exposed in
 * prom-client's registry through the metric interface its registry reads (`get`), in the same
 * text format (`_bucket` with `le`, `_sum`, `_count`).
 */
export class LocalHistogram {
  readonly type = 'histogram';
  private readonly children = new Map<string, HistogramChild>();

  readonly name: string;
  readonly help: string;
  private readonly bounds: readonly number[];
  constructor(name: string, help: string, bounds: readonly number[], registry: Registry) {
    this.name = name;
    this.help = help;
    this.bounds = bounds;
    registry.registerMetric(this as unknown as Histogram);
  }

  child(labels: Record<string, string>): HistogramChild {
    const key = JSON.stringify(labels);
    let c = this.children.get(key);
    if (!c) {
      c = new HistogramChild(labels, this.bounds);
      this.children.set(key, c);
    }
    return c;
  }

  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const c of this.children.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += c.counts[i] ?? 0;
        values.push({ labels: { ...c.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...c.labels, le: '+Inf' }, value: c.count, metricName: `${this.name}_bucket` });
      values.push({ labels: c.labels, value: c.sum, metricName: `${this.name}_sum` });
      values.push({ labels: c.labels, value: c.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }

  reset() {
    this.children.clear();
  }
}
