import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { fakeEnv } from '../helpers/app.ts';
import { privateStores } from '../helpers/stores.ts';
import { freePort } from '../helpers/free-port.ts';
import { register as registerCityParking } from '../fixtures/city-parking/routes.ts';
import { largeHeritageAnswer, slowGet } from '../helpers/slow-reader.ts';
import { SseReader } from '../helpers/sse.ts';
import { eventually } from '../helpers/wait.ts';

const root = new URL('../../', import.meta.url);
/** About 7 MB of JSON: more than the kernel's socket buffers hold, so most of it waits in the server process at SIGTERM. */
const ROWS = 9999;
const LARGE = '/api/v1/cities/muenchen/heritage?limit=all';

test(
  'SIGTERM during a slow download: the reader gets every byte of the answer, an open stream gets a final shutdown event, the process exits 0',
  { timeout: 180_000 },
  async () => {
    const fake = new FakeUpstream().get('/sparql', { json: largeHeritageAnswer(ROWS, 150), headers: { 'content-type': 'application/sparql-results+json' } });
    registerCityParking(fake);
    await fake.start();
    const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-shutdown-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['src/server.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        ...fakeEnv(fake.url),
        PORT: String(port),
        JOBS_ENABLED: 'false',
        RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        ...privateStores(dir),
        // Room for a reader at 1 MB/s on a busy machine; the point is that nothing is cut before it.
        SHUTDOWN_GRACE_MS: '120000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const base = `http://127.0.0.1:${port}`;
    try {
      const up = await eventually(
        () =>
          fetch(`${base}/api/v1/health`).then(
            (r) => r.ok,
            () => false,
          ),
        120_000,
        250,
      );
      assert.ok(up, `the service answered health: ${stderr}`);
      // Fetched once in full, so the slow read below is a cache HIT.
      const full = Buffer.from(await (await fetch(base + LARGE)).arrayBuffer());
      assert.ok(full.length > 6_000_000, `a large answer (${full.length} bytes)`);
      const stream = await SseReader.open(`${base}/api/v1/cities/dresden/parking/stream`);
      await stream.next();

      let signalled = false;
      const read = slowGet(port, LARGE, 1_000_000, (received) => {
        if (!signalled && received > 300_000) {
          signalled = true;
          child.kill('SIGTERM');
        }
      });
      const last = await stream.next();
      assert.equal(last.event, 'shutdown', 'the stream ends with a final event');
      await stream.end();
      const r = await read;
      assert.ok(signalled, 'SIGTERM was sent mid-download');
      assert.equal(r.status, 200);
      assert.equal(r.body.length, r.contentLength, 'every byte of the answer arrived before the connection closed');
      assert.equal((JSON.parse(r.body.toString('utf8')) as { data: unknown[] }).data.length, ROWS);
      assert.ok(r.clean, 'an orderly close, no reset');
      const [code, signal] = await exited;
      assert.equal(signal, null, stderr);
      assert.equal(code, 0, stderr);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await fake.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
