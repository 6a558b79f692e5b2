import { fork, type ChildProcess } from 'node:child_process';
import type { JobHost } from '../../core/job.ts';
import { GTFS_DE } from '../../sources/gtfs/source.ts';
import { forgetFeedStatus, type IndexResult } from '../../sources/gtfs/rt-index.ts';
import { SqliteStore } from '../../store/sqlite.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { ChildReply, ChildRequest, ChildTask } from './child-protocol.ts';
import type { StaticMeta } from '../../sources/gtfs/static-index.ts';
import { childEntry } from './child-entry.ts';

/**
 * The GTFS child processes (gtfs-child.ts) as the app sees them: the poll child, forked for a
 * poll with the configured heap cap and ended after it (GTFS_RT_POLL_CHILD_KEEP keeps it for the
 * next poll), re-forked after it died (an out-of-memory poll fails that poll, not the app); and
 * a static-build child per weekly build. Referenced only while a task runs, so an idle child
 * never keeps the app from exiting.
 */
/** The store's file when other processes can open it: a SQLite file (not :memory:). Redis is shared by its URL. */
export function sharedStorePath(rt: JobHost): string | null {
  return rt.store instanceof SqliteStore && rt.store.path !== ':memory:' ? rt.store.path : null;
}

export function storeIsShared(rt: JobHost): boolean {
  return rt.store.kind === 'redis' || sharedStorePath(rt) !== null;
}

/**
 * Where polls and static builds run (GTFS_RT_POLL_PROCESS): a child process needs a store it
 * can open too, for polls.
 */
export function pollsInChild(rt: JobHost): boolean {
  const mode = rt.config.gtfsRtPollProcess;
  if (mode === 'child' && !storeIsShared(rt)) throw new Error('GTFS_RT_POLL_PROCESS=child needs a store shared across processes (a SQLite file or Redis)');
  return mode === 'child' || (mode === 'auto' && storeIsShared(rt));
}

/**
 * glibc malloc settings for the child, unless the operator set their own: a fixed mmap
 * threshold (glibc raises it after each large free, so later multi-megabyte buffers land in
 * the heap and are never returned) and few arenas. Both lower the poll's peak RSS (bench/README.md, "Figures behind code comments").
 */
const MALLOC_TUNING = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

export type ChildPollResult = IndexResult & { peak_rss_mb: number };

/** The static build parses tens of millions of stop times; it is not held to the poller's memory target. */
const STATIC_BUILD_HEAP_MB = 512;

class GtfsChild {
  private child: ChildProcess | null = null;
  private heapMb = 0;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();

  private readonly name: string;
  constructor(name: string) {
    this.name = name;
  }

  private spawn(heapMb: number): ChildProcess {
    if (this.child && this.heapMb === heapMb) return this.child;
    this.stop();
    const entry = childEntry();
    const child = fork(entry.module, [], {
      // The compiled child, or its TypeScript on Node's type stripping (child-entry.ts).
      // --expose-gc: the child collects after each poll, so the next feed does not land on the
      // last poll's garbage (its stop-call columns live outside the heap).
      // --max-semi-space-size: a poll allocates short-lived strings by the million; small
      // young-generation spaces trade a few more scavenges for a lower peak RSS, at no
      // measurable cost in poll time (bench/README.md, "Figures behind code comments").
      execArgv: [`--max-old-space-size=${heapMb}`, '--max-semi-space-size=2', '--expose-gc'],
      env: { ...MALLOC_TUNING, ...process.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child.on('message', (reply: ChildReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      this.idle();
      if ('ok' in reply) p.resolve(reply.ok);
      else p.reject(reply.error.kind ? new UpstreamError(reply.error.kind, reply.error.message, reply.error.status) : new Error(reply.error.message));
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      for (const p of this.pending.values()) p.reject(new Error(`${this.name} process exited (${signal ?? code}); heap cap ${heapMb} MB`));
      this.pending.clear();
    });
    this.child = child;
    this.heapMb = heapMb;
    return child;
  }

  private idle() {
    if (this.pending.size > 0 || !this.child) return;
    this.child.unref();
    this.child.channel?.unref();
  }

  run<T>(rt: JobHost, task: ChildTask, heapMb: number, signal?: AbortSignal): Promise<T> {
    const child = this.spawn(heapMb);
    child.ref();
    child.channel?.ref();
    const { sourceList: _, ...config } = rt.config;
    const req: ChildRequest = { ...task, id: ++this.seq, config, storePath: sharedStorePath(rt) };
    const onAbort = () => this.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise<T>((resolve, reject) => {
      this.pending.set(req.id, { resolve: resolve as (r: unknown) => void, reject });
      child.send(req);
    }).finally(() => signal?.removeEventListener('abort', onAbort));
  }

  stop() {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) child.kill();
  }

  /** Ends an idle child the way it ends with its parent (it exits on disconnect); resolves once it is gone. */
  async release(): Promise<void> {
    const child = this.child;
    if (!child || this.pending.size > 0) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.disconnect();
    else child.kill();
    await gone;
  }

  /** The process id of the running child, null when none runs (tests, the memory bench). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }
}

const pollChild = new GtfsChild('GTFS-RT poll');
const staticChild = new GtfsChild('static GTFS build');

/** Mirrors a child's upstream outcome into this process's source health. */
async function tracked<T>(rt: JobHost, work: Promise<T>): Promise<T> {
  try {
    const r = await work;
    rt.health.success(GTFS_DE.id);
    return r;
  } catch (err) {
    if (err instanceof UpstreamError) rt.health.failure(GTFS_DE.id, err.message);
    throw err;
  }
}

/**
 * One poll in the poll child. Unless GTFS_RT_POLL_CHILD_KEEP is set, the child ends with the
 * poll: between polls (45 s by default) the tree holds no second Node process, and each poll
 * asks the static index afresh instead of reusing what the last one carried.
 */
export async function pollGtfsRtInChild(rt: JobHost, o: { ttlMs: number; now?: Date; signal?: AbortSignal }): Promise<ChildPollResult> {
  try {
    const r = await tracked(
      rt,
      pollChild.run<ChildPollResult>(rt, { task: 'poll', ttlMs: o.ttlMs, nowMs: o.now?.getTime() }, rt.config.gtfsRtPollHeapMb, o.signal),
    );
    forgetFeedStatus(rt.store);
    return r;
  } finally {
    if (!rt.config.gtfsRtPollChildKeep) await pollChild.release();
  }
}

/** The running poll child's process id, null between polls (unless GTFS_RT_POLL_CHILD_KEEP is set). */
export function pollChildPid(): number | null {
  return pollChild.pid;
}

/** One static build in a child of its own, which ends with the build (its memory goes with it). */
export async function buildGtfsStaticInChild(rt: JobHost, signal?: AbortSignal): Promise<StaticMeta> {
  try {
    return await tracked(rt, staticChild.run<StaticMeta>(rt, { task: 'static' }, STATIC_BUILD_HEAP_MB, signal));
  } finally {
    staticChild.stop();
  }
}

/** Ends the children (startJobs' stop at shutdown, tests); the next poll or build forks anew. */
export function stopGtfsChildren() {
  pollChild.stop();
  staticChild.stop();
}
