import { Cluster } from './cluster.ts';
import { steadyLoad, StreamClient, targets, type LoadReport, type Seen } from './traffic.ts';

/**
 * The scale-out scenarios under load, shared by `node bench/scale-out.ts` (the figures in
 * bench/README.md and docs/operations.md) and test/serial/scale-out.test.ts (a shorter run in CI): one instance
 * SIGKILLed and restarted, Redis restarted, PostgreSQL cut off, the rate limit across instances, each value
 * recorded once. Every scenario runs a steady request rate through nginx and its own stream clients, and returns
 * what it measured; the caller asserts or prints.
 */
export interface ScaleOutOptions {
  instances: number;
  /** Requests per second through nginx, round-robin over traffic.ts targets(). */
  perSecond: number;
  /** Stream clients of the Dresden parking stream through nginx, per scenario. */
  streams: number;
  /** Load before and after each fault (ms). */
  settleMs: number;
  /** How long Redis stays down, and PostgreSQL cut off (ms). */
  redisDownMs: number;
  pgDownMs: number;
  /** The fake feed changes this often; STREAM_POLL_MS (ms). */
  tickMs: number;
  pollMs: number;
  /** RATE_LIMIT_MAX: one client's budget per minute across the cluster. */
  rateLimitMax: number;
}

export const STREAM_PATH = '/api/v1/cities/dresden/parking/stream';
/** routes/streams.ts streamKey of that stream. */
const STREAM_KEY = 'parking/dresden?';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh client address (198.18.0.0/15, for benchmarks) for each request the harness makes itself, so its own checks never meet the rate limit. */
let probeSeq = 0;
function probeAddress(): string {
  const n = ++probeSeq;
  return `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * The cluster, started, with every target asked once through nginx: the faults are measured on a warm cluster (the
 * first fetch of a type builds its schemas, the first answers fill Redis), not on a cold start.
 */
export async function startCluster(o: ScaleOutOptions): Promise<Cluster> {
  const c = await new Cluster({ instances: o.instances, rateLimitMax: o.rateLimitMax, tickMs: o.tickMs, pollMs: o.pollMs }).start();
  try {
    const warm = steadyLoad(c.nginx.base, targets(new Date(c.base).toISOString()), 20);
    await sleep(2000);
    await warm.stop();
  } catch (err) {
    await c.stop();
    throw err;
  }
  return c;
}

/** Distinct client addresses for each scenario's stream clients (each its own stream budget and rate limit). */
let clientSeq = 0;
function openStreams(c: Cluster, n: number): StreamClient[] {
  return Array.from({ length: n }, () => {
    const i = ++clientSeq;
    return new StreamClient(c.nginx.base + STREAM_PATH, `192.0.${2 + Math.floor(i / 250)}.${1 + (i % 250)}`, 300);
  });
}

async function allHave(clients: readonly StreamClient[], n: number, timeoutMs: number): Promise<void> {
  const ok = await Promise.all(clients.map((s) => s.events(n, timeoutMs)));
  if (ok.includes(false)) throw new Error(`streams without ${n} events after ${timeoutMs} ms: ${clients.map((s) => s.seen.length).join(',')}`);
}

export interface StreamFindings {
  clients: number;
  events: number;
  /** Connections beyond each client's first. */
  reconnects: number;
  /** Events named `reset` (a resume id the history no longer held). */
  resets: number;
  /** An event whose data was not newer than the one before it (the same value again, or an older one). */
  repeated: string[];
  backwards: string[];
  /** An id not greater than the one before it. */
  idsOutOfOrder: string[];
  /** Events of the key's Redis stream within a client's span that the client did not get (kill scenario). */
  missed: string[];
  /** Connection attempts that got no stream. */
  refused: number;
}

function ms(id: string): [number, number] {
  const [a = '0', b = '0'] = id.split('-');
  return [Number(a), Number(b)];
}
const idLess = (a: string, b: string) => {
  const [am, as] = ms(a);
  const [bm, bs] = ms(b);
  return am < bm || (am === bm && as < bs);
};

/** What each client got, checked: ids increasing, values (the feed's change counter) increasing, nothing twice. */
function checkStreams(clients: readonly StreamClient[], redisIds?: readonly string[]): StreamFindings {
  const f: StreamFindings = {
    clients: clients.length,
    events: 0,
    reconnects: 0,
    resets: 0,
    repeated: [],
    backwards: [],
    idsOutOfOrder: [],
    missed: [],
    refused: 0,
  };
  clients.forEach((s, n) => {
    f.events += s.seen.length;
    f.reconnects += Math.max(0, s.connections - 1);
    f.refused += s.refused.length;
    f.resets += s.seen.filter((e) => e.event === 'reset').length;
    const trail = (i: number) =>
      `client ${n}: ${s.seen
        .slice(Math.max(0, i - 3), i + 2)
        .map(show)
        .join(' ')}`;
    for (let i = 1; i < s.seen.length; i++) {
      const [a, b] = [s.seen[i - 1]!, s.seen[i]!];
      if (!idLess(a.id, b.id)) f.idsOutOfOrder.push(trail(i));
      if (b.value === a.value) f.repeated.push(trail(i));
      if (b.value < a.value) f.backwards.push(trail(i));
    }
    if (redisIds && s.seen.length > 0) {
      const got = new Set(s.seen.map((e) => e.id));
      const [first, last] = [s.seen[0]!.id, s.seen.at(-1)!.id];
      for (const id of redisIds) if (!idLess(id, first) && !idLess(last, id) && !got.has(id)) f.missed.push(`client ${n}: ${id}`);
    }
  });
  return f;
}

const show = (e: Seen) => `${e.value}${e.event === 'reset' ? '(reset)' : ''}#${e.connection}`;

/** The ids of the stream key's events in Redis, oldest first, and the longest pause between two of them (ms). */
async function redisEvents(c: Cluster, since: number): Promise<{ ids: string[]; longestPauseMs: number }> {
  const r = c.redisClient();
  try {
    const entries = (await r.xrange(c.streamKey(STREAM_KEY), String(since), '+')) as [string, string[]][];
    const ids = entries.map(([id]) => id);
    let longest = 0;
    for (let i = 1; i < ids.length; i++) longest = Math.max(longest, ms(ids[i]!)[0] - ms(ids[i - 1]!)[0]);
    return { ids, longestPauseMs: longest };
  } finally {
    r.disconnect();
  }
}

export interface KillFindings {
  load: LoadReport;
  streams: StreamFindings;
  /** From SIGKILL until the restarted instance listened again. */
  restartMs: number;
  /** The longest time the stream had no new event (a change of the feed comes every tickMs). */
  longestPauseMs: number;
}

/** SIGKILL one instance under load, restart it on its port, and let the load and the streams go on. */
export async function killOne(c: Cluster, o: ScaleOutOptions, victim = 0): Promise<KillFindings> {
  const since = Date.now();
  const load = steadyLoad(c.nginx.base, targets(new Date(c.base).toISOString()), o.perSecond);
  const clients = openStreams(c, o.streams);
  try {
    await allHave(clients, 2, 20_000);
    await sleep(o.settleMs);
    const killed = Date.now();
    await c.kill(victim);
    await c.startInstance(victim);
    const restartMs = Date.now() - killed;
    // Every client gets changes made after the restart, whichever instance it now reads.
    const counts = clients.map((s) => s.seen.length);
    await Promise.all(clients.map((s, i) => s.events(counts[i]! + 2, 20_000)));
    await sleep(o.settleMs);
    const report = await load.stop();
    for (const s of clients) await s.close();
    const redis = await redisEvents(c, since);
    return { load: report, streams: checkStreams(clients, redis.ids), restartMs, longestPauseMs: redis.longestPauseMs };
  } finally {
    await load.stop();
    for (const s of clients) await s.close();
  }
}

export interface RedisFindings {
  load: LoadReport;
  /** The streams open before Redis went away. */
  existing: StreamFindings;
  /** Existing streams that got at least one change while Redis was down, of all existing. */
  existingServedDuringOutage: number;
  /** Streams opened while Redis was down: how many, how many got their first event, the slowest first event (ms). */
  opened: StreamFindings;
  openedStarted: number;
  slowestFirstEventMs: number;
  /** Existing streams' changes after Redis was back. */
  eventsAfterReturn: number;
}

/** Redis killed (no persistence: it comes back empty) and started again under load, with streams open and opened meanwhile. */
export async function restartRedis(c: Cluster, o: ScaleOutOptions): Promise<RedisFindings> {
  const load = steadyLoad(c.nginx.base, targets(new Date(c.base).toISOString()), o.perSecond);
  const existing = openStreams(c, o.streams);
  let opened: StreamClient[] = [];
  try {
    await allHave(existing, 2, 20_000);
    await sleep(o.settleMs);
    await c.redis.kill();
    const down = Date.now();
    opened = openStreams(c, Math.max(2, Math.floor(o.streams / 4)));
    await allHave(opened, 1, o.redisDownMs + 10_000);
    const slowestFirstEventMs = Math.max(...opened.map((s) => s.seen[0]!.at - down));
    await sleep(Math.max(0, down + o.redisDownMs - Date.now()));
    const during = existing.filter((s) => s.seen.some((e) => e.at > down)).length;
    await c.redis.start();
    const back = Date.now();
    const counts = existing.map((s) => s.seen.length);
    await Promise.all([...existing, ...opened].map((s, i) => s.events((counts[i] ?? s.seen.length) + 3, 30_000)));
    await sleep(o.settleMs);
    const report = await load.stop();
    for (const s of [...existing, ...opened]) await s.close();
    return {
      load: report,
      existing: checkStreams(existing),
      existingServedDuringOutage: during,
      opened: checkStreams(opened),
      openedStarted: opened.filter((s) => s.seen.length > 0).length,
      slowestFirstEventMs,
      eventsAfterReturn: existing.reduce((n, s) => n + s.after(back).length, 0),
    };
  } finally {
    await load.stop();
    for (const s of [...existing, ...opened]) await s.close();
  }
}

interface HistoryPoint {
  as_of: string;
  field: string;
  value: number;
  backfilled: boolean;
}

/** The recorded free spaces of the Altmarkt-Galerie's city (Dresden's parking, summed) from instance 0, past nginx's cache. */
async function recorded(c: Cluster): Promise<HistoryPoint[]> {
  const from = encodeURIComponent(new Date(c.base - 60_000).toISOString());
  // A new range each read: an instance keeps a history answer for the type's cache window, keyed by its own
  // writes, so points another instance wrote after the return would otherwise show only when that window ends.
  const to = encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString());
  const res = await fetch(`${c.instanceUrl(0)}/api/v1/cities/dresden/parking/history?from=${from}&to=${to}`, {
    headers: { 'x-forwarded-for': probeAddress() },
  });
  if (res.status !== 200) throw new Error(`history answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as { data: HistoryPoint[] }).data.filter((p) => p.field === 'free_spaces' && !p.backfilled);
}

export interface PgFindings {
  load: LoadReport;
  /** Changes the cluster fetched while PostgreSQL was cut off (their as_of, from the stream). */
  fetchedDuringOutage: number;
  /** Changes the streams got in the whole scenario (before, during, after the cut), and how many are in the history. */
  expected: number;
  recorded: number;
  lost: string[];
  /** From the return until every point kept meanwhile was written (ms). */
  catchUpMs: number;
  /** History answers while it was away: 503 history_store_unavailable, never a 500. */
  historyDuring: Record<string, number>;
  /** The last failure of reading the history back after the return (empty when none). */
  lastError: string;
}

/** PostgreSQL cut off (its TCP proxy closed) under load while the feed goes on changing, then back. */
export async function cutPostgres(c: Cluster, o: ScaleOutOptions): Promise<PgFindings> {
  const load = steadyLoad(c.nginx.base, targets(new Date(c.base).toISOString()), o.perSecond);
  // The streams' pollers fetch every change, so every change is a value the recorder takes.
  const clients = openStreams(c, Math.max(2, Math.floor(o.streams / 4)));
  try {
    await allHave(clients, 2, 20_000);
    await sleep(o.settleMs);
    await c.pg.stop();
    const down = Date.now();
    const historyDuring: Record<string, number> = {};
    for (let i = 0; Date.now() < down + o.pgDownMs; i++) {
      const r = await fetch(`${c.instanceUrl(i % o.instances)}/api/v1/cities/dresden/parking/history`, {
        headers: { 'x-forwarded-for': probeAddress() },
      });
      const code = r.status === 200 ? '200' : `${r.status} ${((await r.json()) as { code?: string }).code ?? ''}`;
      if (r.status === 200) await r.arrayBuffer();
      historyDuring[code] = (historyDuring[code] ?? 0) + 1;
      await sleep(500);
    }
    await c.pg.start();
    const back = Date.now();
    // Every change the streams got, before, during and right after the cut, must be in the history.
    const asOfs = new Set(clients.flatMap((s) => s.seen.map((e) => Date.parse(e.asOf))));
    const during = new Set(clients.flatMap((s) => s.seen.filter((e) => e.at > down && e.at <= back).map((e) => Date.parse(e.asOf))));
    let lastError = '';
    const read = (kept: HistoryPoint[]) =>
      recorded(c).catch((err: unknown) => {
        lastError = err instanceof Error ? err.message : String(err);
        return kept;
      });
    let points = await read([]);
    const have = () => new Set(points.map((p) => Date.parse(p.as_of)));
    for (let i = 0; i < 150 && [...asOfs].some((t) => !have().has(t)); i++) {
      await sleep(200);
      points = await read(points);
    }
    const catchUpMs = Date.now() - back;
    await sleep(o.settleMs);
    const report = await load.stop();
    const kept = have();
    return {
      load: report,
      fetchedDuringOutage: during.size,
      expected: asOfs.size,
      recorded: [...asOfs].filter((t) => kept.has(t)).length,
      lost: [...asOfs].filter((t) => !kept.has(t)).map((t) => new Date(t).toISOString()),
      catchUpMs,
      historyDuring,
      lastError,
    };
  } finally {
    await load.stop();
    for (const s of clients) await s.close();
  }
}

export interface BudgetFindings {
  sent: number;
  ok: number;
  limited: number;
  other: number[];
}

/** One client address asking each instance in turn, past nginx (so no answer comes from its cache): 1.5 times its budget. */
export async function sharedBudget(c: Cluster, o: ScaleOutOptions): Promise<BudgetFindings> {
  const f: BudgetFindings = { sent: 0, ok: 0, limited: 0, other: [] };
  const sent = Math.ceil(o.rateLimitMax * 1.5);
  for (let i = 0; i < sent; i++) {
    const res = await fetch(`${c.instanceUrl(i % o.instances)}/api/v1/cities`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    await res.arrayBuffer();
    f.sent++;
    if (res.status === 200) f.ok++;
    else if (res.status === 429) f.limited++;
    else f.other.push(res.status);
  }
  return f;
}

export interface OnceFindings {
  points: number;
  /** as_of values recorded more than once. */
  duplicates: string[];
}

/** Every free-spaces point of the run: each as_of at most once, although three instances fetched and recorded. */
export async function recordedOnce(c: Cluster): Promise<OnceFindings> {
  const points = await recorded(c);
  const count = new Map<number, number>();
  for (const p of points) count.set(Date.parse(p.as_of), (count.get(Date.parse(p.as_of)) ?? 0) + 1);
  return {
    points: points.length,
    duplicates: [...count].filter(([, n]) => n > 1).map(([t, n]) => `${new Date(t).toISOString()} x${n}`),
  };
}
