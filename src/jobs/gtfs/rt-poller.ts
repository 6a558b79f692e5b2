import type { JobHost } from '../../core/job.ts';
import { GTFS_DE } from '../../sources/gtfs/source.ts';
import type { IndexResult } from '../../sources/gtfs/rt-index.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStaticIndex, reopenStaticIndex, staticIndexPath } from '../../sources/gtfs/static-index.ts';
import { intervalOf, type ScheduledJob } from '../../core/job.ts';
import { staticBuildRunning } from './static.ts';
import { pollGtfsRt } from './rt-poll.ts';
import { pollGtfsRtInChild, pollsInChild } from './child-process.ts';

/** Indexes outlive a few missed polls, then expire: volatile ids answer no_data. */
export const TTL_POLLS = 3;

/** One poll, in the child process or in this one as configured. */
export async function runGtfsRtPoll(rt: JobHost, o: { ttlMs: number; now?: Date; signal?: AbortSignal }): Promise<IndexResult> {
  return pollsInChild(rt) ? pollGtfsRtInChild(rt, o) : pollGtfsRt(rt, o);
}

/**
 * On a first start the static index is still being built when the first poll is due, and a
 * poll without it stores no departure boards and no route ids from trips.txt until the next
 * poll. So the first poll, and any poll while a build runs here, waits for a missing index a
 * while: a small feed builds in a second; the nationwide one takes minutes, and then the poll
 * goes ahead without it. A failed build (upstream down) delays only the first poll.
 */
export const STATIC_WAIT_MS = 30_000;

async function awaitStaticIndex(rt: JobHost, signal: AbortSignal, waitMs: number, firstPoll: boolean): Promise<void> {
  const path = staticIndexPath(rt.config);
  const until = Date.now() + waitMs;
  // reopen: the handle cache would only look at the disk again after a couple of seconds.
  while (!reopenStaticIndex(path) && (firstPoll || staticBuildRunning()) && Date.now() < until && !signal.aborted) {
    await sleep(200, undefined, { signal }).catch(() => {});
  }
}

/**
 * The poller job, at the configured cadence (GTFS_RT_POLL_INTERVAL_S); tests build one with a short
 * fixed interval (and so a short TTL).
 */
export function gtfsRtPoller(fixedIntervalMs?: number, staticWaitMs = STATIC_WAIT_MS): ScheduledJob {
  let first = true;
  const job: ScheduledJob = {
    name: 'gtfs-rt-poller',
    intervalMs: fixedIntervalMs ?? ((config) => config.gtfsRtPollIntervalS * 1000),
    enabled: (rt) => rt.sourceEnabled(GTFS_DE),
    async run(rt, log, signal) {
      if (!openStaticIndex(staticIndexPath(rt.config))) await awaitStaticIndex(rt, signal, staticWaitMs, first);
      first = false;
      const r = await runGtfsRtPoll(rt, { ttlMs: intervalOf(job, rt.config) * TTL_POLLS, signal });
      log(
        `GTFS-RT: ${r.status.trip_updates} trip updates of ${r.status.entities} entities, as_of ${r.status.as_of}; decode+index ${r.decode_index_ms} ms, ${r.writes} writes in ${r.write_ms} ms`,
      );
    },
  };
  return job;
}

/** The poller the catalog names on the live transit types. */
export const GTFS_RT_POLLER = gtfsRtPoller();
