/**
 * Server-Sent Events at scale (`node bench/streams.ts`): one Stadtdaten process
 * (bench/servers/streams-server.ts) holds BENCH_STREAMS (5000) idle streams of one key, opened by
 * this process over loopback. Measured from outside the server: its RSS before and with the
 * streams (/proc/PID/status), its CPU while they idle and before (/proc/PID/stat over BENCH_IDLE_S
 * each, which spans heartbeat rounds), and, BENCH_CHANGES times, the time from the fake upstream serving a
 * changed answer to the first and to the last subscriber's change event.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type IncomingMessage } from 'node:http';
import { FakeUpstream, fixture } from '../test/helpers/fake-upstream.ts';
import { fakeEnv } from '../test/helpers/app.ts';
import { privateStores } from '../test/helpers/stores.ts';
import { register as registerCityParking, replayAsCurrent, DRESDEN_V1 } from '../test/fixtures/city-parking/routes.ts';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 5000);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 30);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 3);
const POLL_MS = process.env.BENCH_POLL_MS ?? '250';
const HEARTBEAT_MS = process.env.BENCH_HEARTBEAT_MS ?? '10000';
const PORT = 3917;
const PATH = '/api/v1/cities/dresden/parking/stream';
const TICK_MS = 10; // USER_HZ 100 on Linux

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** One subscriber: counts events (a blank line after a data line) and notes when each arrived. */
class Stream {
  events = 0;
  readonly at: number[] = [];
  res: IncomingMessage | null = null;
  private tail = '';
  private waiters: (() => void)[] = [];
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: PORT, path: PATH, agent: false, headers: { accept: 'text/event-stream' } });
      req.once('error', reject);
      req.once('response', (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        this.res = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const text = this.tail + chunk;
          const n = text.split('\ndata: ').length - 1;
          this.tail = text.slice(-8);
          for (let i = 0; i < n; i++) {
            this.events++;
            this.at.push(performance.now());
          }
          if (n) for (const w of this.waiters.splice(0)) w();
        });
        resolve();
      });
      req.end();
    });
  }
  async until(events: number) {
    while (this.events < events) await new Promise<void>((r) => this.waiters.push(r));
  }
}

async function main() {
  const fake = await new FakeUpstream().start();
  registerCityParking(fake);
  const recording = replayAsCurrent(fixture(DRESDEN_V1).toString('utf8'));
  let servedChangeAt = 0;
  const serve = (free: number) =>
    fake.get('/Dresden', () => {
      servedChangeAt ||= performance.now();
      return { body: recording.replace('"free": 212', `"free": ${free}`), headers: { 'content-type': 'application/json' } };
    });
  serve(212);
  const env = {
    ...process.env,
    ...fakeEnv(fake.url),
    HOST: '127.0.0.1',
    PORT: String(PORT),
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'false',
    ...privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-streams-'))),
    STREAM_MAX_TOTAL: String(STREAMS + 100),
    STREAM_MAX_PER_CLIENT: String(STREAMS + 100),
    STREAM_POLL_MS: POLL_MS,
    STREAM_HEARTBEAT_MS: HEARTBEAT_MS,
    SERVER_MAX_CONNECTIONS: String(STREAMS + 1000),
  };
  const svc = spawn(process.execPath, ['bench/servers/streams-server.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((r) => svc.stdout.on('data', (b: Buffer) => b.toString().includes('ready') && r()));
  const pid = svc.pid!;
  try {
    // Warm: the parking answer is cached and the stream code loaded, then all streams closed again.
    const warm = new Stream();
    await warm.open();
    await warm.until(1);
    warm.res!.destroy();
    await sleep(2000);
    const before = rssMb(pid);
    const base0 = cpuMs(pid);
    const b0 = performance.now();
    await sleep(IDLE_S * 1000);
    const baseCpu = (cpuMs(pid) - base0) / (performance.now() - b0);

    const streams = Array.from({ length: STREAMS }, () => new Stream());
    const openStart = performance.now();
    for (let i = 0; i < streams.length; i += 250) await Promise.all(streams.slice(i, i + 250).map((s) => s.open().then(() => s.until(1))));
    const openS = (performance.now() - openStart) / 1000;
    await sleep(2000);
    const cpu0 = cpuMs(pid);
    const t0 = performance.now();
    await sleep(IDLE_S * 1000);
    const idleCpu = (cpuMs(pid) - cpu0) / (performance.now() - t0);
    const withStreams = rssMb(pid);

    const changes = [];
    for (let c = 1; c <= CHANGES; c++) {
      servedChangeAt = 0;
      serve(212 + c);
      await Promise.all(streams.map((s) => s.until(1 + c)));
      const arrivals = streams.map((s) => s.at[c]!);
      changes.push({
        first_ms: +(Math.min(...arrivals) - servedChangeAt).toFixed(1),
        last_ms: +(Math.max(...arrivals) - servedChangeAt).toFixed(1),
        spread_ms: +(Math.max(...arrivals) - Math.min(...arrivals)).toFixed(1),
      });
    }
    const result = {
      streams: STREAMS,
      open_s: +openS.toFixed(1),
      rss_mb_before: +before.toFixed(1),
      rss_mb_with_streams: +withStreams.toFixed(1),
      rss_kb_per_stream: +(((withStreams - before) * 1024) / STREAMS).toFixed(1),
      idle_cpu_percent_without_streams: +(baseCpu * 100).toFixed(2),
      idle_cpu_percent: +(idleCpu * 100).toFixed(2),
      idle_s: IDLE_S,
      heartbeat_ms: Number(HEARTBEAT_MS),
      poll_ms: Number(POLL_MS),
      change_to_event: changes,
    };
    console.log(JSON.stringify(result, null, 2));
    for (const s of streams) s.res?.destroy();
  } finally {
    svc.kill('SIGTERM');
    await fake.stop();
  }
}

await main();
