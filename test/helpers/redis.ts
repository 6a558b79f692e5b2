import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

/**
 * Redis for the tests that need one: TEST_REDIS_URL when set, otherwise a private redis-server
 * this process starts on a free loopback port. Without the binary the Redis tests skip with
 * REDIS_SKIP as their one visible reason; CI (.ci/run) installs redis-server so they always run there.
 */
const installed = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export const REDIS_SKIP: string | false =
  process.env.TEST_REDIS_URL || installed
    ? false
    : 'redis-server not installed: Redis tests skipped (install it, e.g. apt-get install redis-server, or set TEST_REDIS_URL=redis://host:port; .ci/run does both)';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createConnection(port, '127.0.0.1');
    s.setTimeout(500, () => {
      s.destroy();
      res(false);
    });
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => {
      s.end();
      res(d.toString().startsWith('+PONG'));
    });
    s.once('error', () => res(false));
  });
}

/** A throw-away redis-server (no persistence) on one port; start/stop may repeat on the same port. */
export class RedisServer {
  private proc: ChildProcess | null = null;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await answers(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = null;
    if (!p || p.exitCode !== null) return;
    await new Promise((r) => {
      p.once('exit', r);
      p.kill('SIGKILL');
    });
  }
}

/** The Redis URL the shared-store tests use, starting a private server when TEST_REDIS_URL is not set. */
export async function testRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const server = new RedisServer(await freePort());
  await server.start();
  return { url: server.url, stop: () => server.stop() };
}
