/**
 * Shutdown under load (attack suite): one service process (`npm start`'s Node arguments, compiled
 * dist/) serves SLOW_READERS clients a large list (about 7 MB: a heritage list of 9,999 monuments
 * from a fake Wikidata Query Service) at 500 KB/s each, holds STREAMS open streams, and answers
 * LOAD_WORKERS clients asking in a loop; mid-download it gets SIGTERM. Reported: the bytes the slow
 * readers got against what their Content-Length promised, the streams that got the final
 * `shutdown` event, the requests that failed, and how long the process took to exit.
 * Run alone: `node bench/attack/probes/shutdown-slow-reader.ts`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FakeUpstream } from '../../../test/helpers/fake-upstream.ts';
import { fakeEnv } from '../../../test/helpers/app.ts';
import { privateStores } from '../../../test/helpers/stores.ts';
import { freePort } from '../../../test/helpers/free-port.ts';
import { eventually } from '../../../test/helpers/wait.ts';
import { largeHeritageAnswer, slowGet, type SlowRead } from '../../../test/helpers/slow-reader.ts';
import { SseReader } from '../../../test/helpers/sse.ts';
import { register as registerCityParking } from '../../../test/fixtures/city-parking/routes.ts';
import { npmStartArgs } from '../../npm-start.ts';
import type { AttackRow, Probe } from '../row.ts';

const SLOW_READERS = Number(process.env.ATTACK_SLOW_READERS ?? 6);
const STREAMS = Number(process.env.ATTACK_STREAMS ?? 50);
const LOAD_WORKERS = Number(process.env.ATTACK_LOAD_WORKERS ?? 4);
const RATE = 500_000;
const LARGE = '/api/v1/cities/muenchen/heritage?limit=all';
const GRACE_MS = 60_000;
const STREAM_CITIES = ['dresden', 'freiburg', 'karlsruhe', 'dortmund'];

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

export const probe: Probe = async () => {
  const fake = new FakeUpstream().get('/sparql', { json: largeHeritageAnswer(9999, 150), headers: { 'content-type': 'application/sparql-results+json' } });
  registerCityParking(fake);
  await fake.start();
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-attack-shutdown-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, npmStartArgs(), {
    env: {
      PATH: process.env.PATH,
      ...fakeEnv(fake.url),
      PORT: String(port),
      JOBS_ENABLED: 'false',
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...privateStores(dir),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      STREAM_MAX_PER_CLIENT: String(STREAMS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const streams: SseReader[] = [];
  try {
    const up = await eventually(
      () =>
        fetch(`${base}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        ),
      180_000,
      250,
    );
    if (!up) throw new Error('the service did not start');
    await (await fetch(base + LARGE)).arrayBuffer();
    for (let i = 0; i < STREAMS; i++) {
      const s = await SseReader.open(`${base}/api/v1/cities/${STREAM_CITIES[i % STREAM_CITIES.length]!}/parking/stream`);
      await s.next();
      streams.push(s);
    }

    let signalledAt = 0;
    let stopLoad = false;
    // A request sent before SIGTERM is in flight and must be answered; one sent after it may meet the closing
    // listener (refused, or reset while still in the accept queue) and is counted apart.
    const load = { ok: 0, cut: 0, turnedAway: 0 };
    const awayCodes = new Set<string>();
    const worker = async () => {
      while (!stopLoad) {
        const sentAfterSignal = signalledAt > 0;
        try {
          const r = await fetch(`${base}/api/v1/cities/koeln`);
          await r.arrayBuffer();
          load.ok++;
        } catch (err) {
          if (!sentAfterSignal) load.cut++;
          else {
            load.turnedAway++;
            awayCodes.add((err as { cause?: { code?: string } }).cause?.code ?? 'error');
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }
    };
    const workers = Array.from({ length: LOAD_WORKERS }, worker);
    // Each reader has its first 300 KB when SIGTERM comes: the rest is still in the server, most of it in the process.
    const started: Promise<void>[] = [];
    const reads: Promise<SlowRead>[] = [];
    for (let i = 0; i < SLOW_READERS; i++) {
      let reached = () => {};
      started.push(new Promise<void>((r) => (reached = r)));
      reads.push(slowGet(port, LARGE, RATE, (n) => (n > 300_000 ? reached() : undefined)));
    }
    await Promise.all(started);
    signalledAt = performance.now();
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    const exitS = (performance.now() - signalledAt) / 1000;
    stopLoad = true;
    await Promise.all(workers);
    const got = await Promise.all(reads);
    await Promise.all(streams.map((s) => s.end()));

    const expected = got.reduce((n, r) => n + (Number.isFinite(r.contentLength) ? r.contentLength : 0), 0);
    const received = got.reduce((n, r) => n + r.body.length, 0);
    const complete = got.filter((r) => r.body.length === r.contentLength).length;
    const finals = streams.filter((s) => s.events.at(-1)?.event === 'shutdown').length;
    const rows: AttackRow[] = [
      {
        probe: 'shutdown-slow-reader',
        measure: `${SLOW_READERS} readers at 500 KB/s across SIGTERM: bytes received / promised`,
        value: `${mb(received)} / ${mb(expected)} (${complete}/${SLOW_READERS} complete)`,
        verdict: `every byte: ${complete === SLOW_READERS && received === expected ? 'held' : 'FAILED'}`,
      },
      {
        probe: 'shutdown-slow-reader',
        measure: `${STREAMS} open streams: final \`shutdown\` event`,
        value: `${finals}/${STREAMS}`,
        verdict: `all: ${finals === STREAMS ? 'held' : 'FAILED'}`,
      },
      {
        probe: 'shutdown-slow-reader',
        measure: `${LOAD_WORKERS} clients in a loop: answered / cut in flight / sent after SIGTERM and turned away`,
        value: `${load.ok} / ${load.cut} / ${load.turnedAway} [${[...awayCodes].join(', ')}]`,
        verdict: `none cut in flight: ${load.cut === 0 ? 'held' : 'FAILED'}`,
      },
      {
        probe: 'shutdown-slow-reader',
        measure: 'SIGTERM to exit',
        value: `${exitS.toFixed(1)} s, exit ${code ?? signal}`,
        verdict: `exit 0 within the grace (${GRACE_MS / 1000} s): ${code === 0 && exitS < GRACE_MS / 1000 ? 'held' : 'FAILED'}`,
      },
    ];
    return rows;
  } finally {
    for (const s of streams) s.close();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await probe());
