import { Agent, request } from 'undici';
import { SseReader } from '../../test/helpers/sse.ts';

/** A client address of its own per request (X-Forwarded-For, honoured by TRUST_PROXY), so the load never meets the per-client limit. */
function address(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface Target {
  /** Path and query. */
  path: string;
  accept?: string;
  /** A JSON-RPC body: POSTed to the path. */
  mcp?: string;
  /** What the answer's Content-Type must start with. */
  type: string;
}

const CITY = 'freiburg-im-breisgau';
const MCP = (id: number, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'environment', arguments: args } });

/** About twenty URLs a client mix asks for: JSON, CSV, GeoJSON, the parking history, an MCP tool call. */
export function targets(historyFrom: string): Target[] {
  const json = 'application/json';
  return [
    ...['berlin', 'hamburg', 'muenchen', 'koeln', CITY, 'leipzig'].map((c) => ({ path: `/api/v1/cities/${c}/weather`, type: json })),
    { path: '/api/v1/cities/dresden/parking', type: json },
    { path: '/api/v1/cities/dresden/parking', accept: 'text/csv', type: 'text/csv' },
    { path: '/api/v1/cities/dresden/parking?format=geojson', type: 'application/geo+json' },
    { path: `/api/v1/cities/${CITY}/parking`, type: json },
    { path: `/api/v1/cities/${CITY}/parking?format=csv`, type: 'text/csv' },
    { path: '/api/v1/cities/koeln/water-level', type: json },
    { path: '/api/v1/cities/hamburg/power-price', type: json },
    { path: '/api/v1/cities/muenchen/power-price', type: json },
    { path: `/api/v1/cities/dresden/parking/history?from=${encodeURIComponent(historyFrom)}`, type: json },
    { path: '/api/v1/cities', type: json },
    { path: '/api/v1/cities/dresden', type: json },
    { path: '/api/v1/sources', type: json },
    { path: '/api/v1/health', type: json },
    { path: '/mcp', mcp: MCP(1, { city: CITY, data_type: 'weather' }), type: json },
  ];
}

export interface LoadReport {
  requests: number;
  failed: number;
  /** The first failures, each with its URL, status or error. */
  failures: string[];
  statuses: Record<string, number>;
}

/**
 * Requests at a steady rate (`perSecond`), round-robin over the targets, through `base` (nginx); a request that
 * errs or answers anything but 200 with the expected Content-Type is a failure. `stop()` waits for those in flight.
 */
export function steadyLoad(base: string, list: readonly Target[], perSecond: number) {
  const agent = new Agent({ connections: 64, keepAliveTimeout: 4000 });
  const report: LoadReport = { requests: 0, failed: 0, failures: [], statuses: {} };
  const inflight = new Set<Promise<void>>();
  let n = 0;
  const started = Date.now();
  const fail = (t: Target, why: string) => {
    report.failed++;
    const at = ((Date.now() - started) / 1000).toFixed(1);
    if (report.failures.length < 20) report.failures.push(`${at} s: ${t.mcp ? 'POST' : 'GET'} ${t.path}${t.accept ? ` (${t.accept})` : ''}: ${why}`);
  };
  const one = async (t: Target, i: number) => {
    try {
      const res = await request(base + t.path, {
        dispatcher: agent,
        method: t.mcp ? 'POST' : 'GET',
        body: t.mcp,
        headers: {
          'x-forwarded-for': address(i),
          ...(t.accept ? { accept: t.accept } : {}),
          ...(t.mcp ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {}),
        },
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const text = await res.body.text();
      report.statuses[res.statusCode] = (report.statuses[res.statusCode] ?? 0) + 1;
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200) fail(t, `${res.statusCode} ${text.slice(0, 400)}`);
      else if (!type.startsWith(t.type)) fail(t, `Content-Type ${type}`);
      else if (t.mcp && /"isError":\s*true/.test(text)) fail(t, `tool error ${text.slice(0, 160)}`);
    } catch (err) {
      report.statuses.error = (report.statuses.error ?? 0) + 1;
      fail(t, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    }
  };
  // Ticks of 20 ms, each sending what the rate owes by then: steady, whatever the timer's jitter.
  const timer = setInterval(() => {
    const owed = Math.floor(((Date.now() - started) / 1000) * perSecond);
    while (n < owed) {
      const i = n++;
      report.requests++;
      const p = one(list[i % list.length]!, i).finally(() => inflight.delete(p));
      inflight.add(p);
    }
  }, 20);
  let stopped: Promise<LoadReport> | null = null;
  return {
    report,
    /** Idempotent. */
    stop(): Promise<LoadReport> {
      clearInterval(timer);
      stopped ??= (async () => {
        while (inflight.size) await Promise.all([...inflight]);
        await agent.close();
        return report;
      })();
      return stopped;
    },
  };
}

export interface Seen {
  id: string;
  event: string;
  /** The Altmarkt-Galerie's free spaces: the change counter of the fake feed. */
  value: number;
  asOf: string;
  /** Which connection of the client it came on (0 = the first). */
  connection: number;
  /** When it came in (ms). */
  at: number;
}

/** The change counter and as_of of a parking stream event. */
function parse(data: string): { value: number; asOf: string } {
  const e = JSON.parse(data) as { data: { name: string; free_spaces: number }[]; meta: { as_of?: string } };
  return { value: e.data.find((s) => s.name === 'Altmarkt-Galerie')?.free_spaces ?? NaN, asOf: e.meta.as_of ?? '' };
}

/**
 * An EventSource as a browser runs it, through nginx: on the end of its stream it reconnects after `retry` (at most
 * `maxRetryMs`) with Last-Event-ID, and keeps every event it got, in order.
 */
export class StreamClient {
  readonly seen: Seen[] = [];
  connections = 0;
  /** Attempts that got no stream (an error or a status other than 200), retried like a drop. */
  refused: string[] = [];
  private reader: SseReader | null = null;
  private closed = false;
  private readonly done: Promise<void>;

  private readonly url: string;
  readonly client: string;
  private readonly maxRetryMs: number;
  constructor(url: string, client: string, maxRetryMs = 500) {
    this.url = url;
    this.client = client;
    this.maxRetryMs = maxRetryMs;
    this.done = this.run();
  }

  get lastId(): string | null {
    return this.seen.at(-1)?.id ?? null;
  }

  private async run() {
    let retry = this.maxRetryMs;
    while (!this.closed) {
      const headers: Record<string, string> = { 'x-forwarded-for': this.client };
      if (this.lastId) headers['last-event-id'] = this.lastId;
      let r: SseReader;
      try {
        r = await SseReader.open(this.url, headers);
      } catch (err) {
        this.refused.push(String(err));
        await sleep(retry);
        continue;
      }
      if (this.closed) {
        r.close();
        break;
      }
      this.reader = r;
      const connection = this.connections++;
      if (r.status !== 200) {
        await r.end();
        this.refused.push(`${r.status} ${r.text.slice(0, 120)}`);
      } else {
        for (;;) {
          let e;
          try {
            e = await r.next();
          } catch {
            break;
          }
          if (r.retry !== null) retry = Math.min(r.retry, this.maxRetryMs);
          if (e.event === 'shutdown' || e.id === null) continue;
          this.seen.push({ id: e.id, event: e.event, connection, at: Date.now(), ...parse(e.data) });
        }
      }
      this.reader = null;
      if (!this.closed) await sleep(retry);
    }
  }

  /** Resolves true once `n` events have come in (false after `timeoutMs`). */
  async events(n: number, timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.seen.length < n && Date.now() < until) await sleep(20);
    return this.seen.length >= n;
  }

  /** Events that came in after `since` (ms). */
  after(since: number): Seen[] {
    return this.seen.filter((e) => e.at > since);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.reader?.close();
    await this.done;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
