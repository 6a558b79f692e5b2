/**
 * Start and idle (`node bench/start.ts`): time from spawning the server process to
 * the first 200 of /api/v1/health, and resident memory once idle, with background jobs (the GTFS
 * poller and precomputes) off and on. The server runs with the command of package.json's `start`
 * script (compiled JavaScript; build first with `npm run build`), or START_CMD, in START_CWD
 * (default here), on a fresh store, against the fake upstream.
 * BENCH_RUNS (default 3) starts per setting; BENCH_IDLE_S (default 45) seconds of idling, long
 * enough for the first GTFS poll (it waits for the static index first) to come and go.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from '../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../test/fixtures/index.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { need } from './need.ts';
import { npmStartArgs } from './npm-start.ts';
import { rssMb, tree } from './process-memory.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 45);
const CMD = process.env.START_CMD?.split(' ') ?? [process.execPath, ...npmStartArgs()];
const PORT = 3931;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(jobs: boolean, fakeUrl: string) {
  const env = {
    ...process.env,
    ...fakeEnv(fakeUrl),
    HOST: '127.0.0.1',
    PORT: String(PORT),
    JOBS_ENABLED: String(jobs),
    LOG_LEVEL: 'warn',
    ...privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-start-'))),
  };
  const started = performance.now();
  const p = spawn(need(CMD[0], 'START_CMD'), CMD.slice(1), { env, cwd: process.env.START_CWD, stdio: ['ignore', 'ignore', 'inherit'] });
  const pid = need(p.pid, 'the server process id');
  try {
    let readyMs = NaN;
    for (let i = 0; i < 3000; i++) {
      if (
        await fetch(`http://127.0.0.1:${PORT}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        )
      ) {
        readyMs = performance.now() - started;
        break;
      }
      await sleep(10);
    }
    const rssAtReady = rssMb(pid);
    // Sampled through the idle window: with jobs on, a GTFS poll child appears for each poll and
    // (unless GTFS_RT_POLL_CHILD_KEEP is set) is gone again once the poll is written.
    let children = 0;
    let peakTree = 0;
    for (const until = Date.now() + IDLE_S * 1000; Date.now() < until; await sleep(250)) {
      const now = tree(pid);
      children = Math.max(children, now.length - 1);
      peakTree = Math.max(
        peakTree,
        now.reduce((a, x) => a + rssMb(x), 0),
      );
    }
    const pids = tree(pid);
    return {
      jobs,
      ready_ms: Math.round(readyMs),
      rss_at_ready_mb: rssAtReady,
      idle_rss_mb: rssMb(pid),
      idle_rss_tree_mb: pids.reduce((a, x) => a + rssMb(x), 0),
      processes: pids.length,
      children_seen: children,
      peak_tree_mb: peakTree,
    };
  } finally {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('exit', r));
  }
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  const rows = [];
  for (let i = 0; i < RUNS; i++) for (const jobs of [false, true]) rows.push(await once(jobs, fake.url));
  console.log(`command: ${CMD.join(' ')}; idle ${IDLE_S} s`);
  console.table(rows);
  await fake.stop();
  process.exit(0);
}

void main();
