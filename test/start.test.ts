import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { freePort } from './helpers/free-port.ts';
import { privateStores } from './helpers/stores.ts';
import { eventually } from './helpers/wait.ts';

const root = new URL('../', import.meta.url);

test('npm start runs compiled JavaScript (built on demand into dist/), no TypeScript and no module loader in the process', { timeout: 180_000 }, async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-start-'))),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    let health: { data?: { status?: string } } | null = null;
    for (let i = 0; i < 170 && !health; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      health = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
        .then((r) => r.json() as Promise<{ data?: { status?: string } }>)
        .catch(() => null);
    }
    assert.equal(health?.data?.status, 'ok');
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(!cmdline.some((a) => /\.ts$|^--(import|loader|experimental-loader)|tsx/.test(a)), cmdline.join(' '));
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'utf8');
    assert.ok(!/NODE_OPTIONS=[^\0]*(--import|--loader|tsx)/.test(environ), 'no module loader in the environment (NODE_OPTIONS)');
    assert.ok(existsSync(new URL('dist/src/server.js', root)));
    assert.ok(existsSync(new URL('dist/src/gtfs-child.js', root)), 'the GTFS child is an ordinary build output');
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

test('.env in the working directory is loaded at start; a busy port ends with one line naming PORT', { timeout: 180_000 }, async () => {
  const { writeFileSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-env-'));
  const port = await freePort();
  writeFileSync(join(dir, '.env'), `# settings for this folder\nPORT=${port}\nDEMO=true\nSTORE_PATH=:memory:\nHISTORY_PATH=:memory:\nJOBS_ENABLED=false\n`);
  const start = (env: Record<string, string>) =>
    spawn(process.execPath, [new URL('scripts/start.js', root).pathname], {
      cwd: dir,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATABASE_URL: '', REDIS_URL: '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  const child = start({});
  try {
    let health: { data?: { demo?: boolean } } | null = null;
    for (let i = 0; i < 170 && !health; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      health = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
        .then((r) => r.json() as Promise<{ data?: { demo?: boolean } }>)
        .catch(() => null);
    }
    assert.equal(health?.data?.demo, true, 'PORT and DEMO came from .env');
    // Same .env, the port now busy: one clear line, no stack trace, exit code 1.
    const second = start({});
    let stderr = '';
    second.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(second, 'exit')) as [number];
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the address is already in use; .*PORT=${port + 1}`));
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

test('graceful shutdown: SIGTERM while requests are in flight answers them, then exits 0 without a native abort', { timeout: 180_000 }, async () => {
  const { FakeUpstream } = await import('./helpers/fake-upstream.ts');
  const { fakeEnv } = await import('./helpers/app.ts');
  // Bright Sky answers after 5 s: the requests below are still waiting for it when SIGTERM arrives, also on a busy machine.
  const fake = await new FakeUpstream().get('/current_weather', { file: 'brightsky/current_weather-feldberg-2022-07-24.json', delayMs: 5000 }).start();
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      ...fakeEnv(fake.url),
      PORT: String(port),
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...privateStores(mkdtempSync(join(tmpdir(), 'stadtdaten-start-'))),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    let up = false;
    for (let i = 0; i < 170 && !up; i++) {
      await new Promise((r) => setTimeout(r, 250));
      up = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
    }
    assert.ok(up, 'the service answered health');
    const inFlight = ['berlin', 'hamburg', 'muenchen', 'koeln'].map((c) =>
      fetch(`http://127.0.0.1:${port}/api/v1/cities/${c}/weather`).then(async (r) => ({
        status: r.status,
        connection: r.headers.get('connection'),
        body: await r.text(),
      })),
    );
    // SIGTERM once the four requests wait for the upstream (however long a busy machine takes to get them there).
    for (let i = 0; i < 200 && fake.count('/current_weather') < 4; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fake.count('/current_weather'), 4, 'all four requests reached the upstream before SIGTERM');
    child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    for (const a of answers) {
      assert.equal(a.status, 200, a.body);
      // Begun before the drain, answered after it: the answer closes its keep-alive connection.
      assert.equal(a.connection, 'close');
    }
    const [code, signal] = await exited;
    assert.equal(signal, null, stderr);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /Assertion failed|Aborted|FATAL|Segmentation/);
    // New connections are refused once it is gone.
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/v1/health`));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await fake.stop();
  }
});

/** The processes below `pid` (children, their children, ...), read from /proc. */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = /^PPid:\s+(\d+)$/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      if (ppid) parent.set(Number(name), Number(ppid));
    } catch {
      // Gone while listing.
    }
  }
  const found: number[] = [];
  const visit = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie has exited; only its parent's wait is missing.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

test('SIGTERM to the process `npm start` started reaches the server: npm exits cleanly and no process is left', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-npm-start-'));
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...privateStores(dir),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  npm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let below: number[] = [];
  try {
    const up = await eventually(
      () =>
        fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        ),
      170_000,
      250,
    );
    assert.ok(up, `the service answered health: ${stderr}`);
    below = descendants(npm.pid!);
    assert.ok(below.length > 0, 'npm start runs the server in a process of its own');
    npm.kill('SIGTERM');
    const [code, signal] = await exited;
    assert.ok(await eventually(() => below.every((p) => !alive(p)), 20_000), `left running: ${below.filter(alive).join(', ')}`);
    assert.equal(signal, null, stderr);
    assert.equal(code, 0, stderr);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/v1/health`), 'nothing listens any more');
  } finally {
    for (const p of below.filter(alive)) process.kill(p, 'SIGKILL');
    if (npm.exitCode === null) npm.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
