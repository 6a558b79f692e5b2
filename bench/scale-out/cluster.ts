import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { FakeUpstream, fixture } from '../../test/helpers/fake-upstream.ts';
import { registerAllFixtures } from '../../test/fixtures/index.ts';
import { DRESDEN_V1 } from '../../test/fixtures/city-parking/routes.ts';
import { fakeEnv } from '../../test/helpers/app.ts';
import { freePort } from '../../test/helpers/free-port.ts';
import { privateStores } from '../../test/helpers/stores.ts';
import { RedisProcess } from '../../test/helpers/redis-server.ts';
import { freshSchema } from '../../test/helpers/postgres.ts';
import { tcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.ts';
import { startNginx, type Proxy } from '../../test/helpers/proxies.ts';

/** Keys some sources need; the fake upstream accepts any. */
const CREDENTIALS = { DB_CLIENT_ID: 'id', DB_API_KEY: 'key', RMV_API_KEY: 'key', HVV_GEOFOX_USER: 'user', HVV_GEOFOX_PASSWORD: 'password' };

export interface ClusterOptions {
  instances: number;
  /** RATE_LIMIT_MAX of every instance: the one budget a client address has across the cluster per minute. */
  rateLimitMax: number;
  /** How often the fake Dresden parking feed changes (ms): each change is one stream event and one history point. */
  tickMs: number;
  /** STREAM_POLL_MS, and the parking answer's fresh window. */
  pollMs: number;
}

/**
 * Three (or n) instances of the service as separate processes behind the shipped nginx configuration
 * (deploy/nginx/stadtdaten.conf, its upstream block listing every instance), sharing a private Redis (cache, locks,
 * stream fan-out, rate limit) and a private PostgreSQL schema (history) reached through a TCP proxy the harness can
 * cut. The upstreams are the fake upstream serving the recorded fixtures; Dresden's parking feed (ParkenDD's format,
 * test/fixtures/city-parking) is made to change every `tickMs`: the Altmarkt-Galerie's free spaces count the
 * changes and `last_updated` moves on by a second per change, so every event of the stream and every history point
 * names its change.
 */
export class Cluster {
  readonly fake = new FakeUpstream();
  readonly redis = new RedisProcess();
  readonly prefix = `scale-out:${randomUUID().slice(0, 8)}:`;
  nginx!: Proxy;
  pg!: TcpProxy;
  ports: number[] = [];
  private readonly children: (ChildProcess | null)[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'stadtdaten-scale-out-'));
  private schema!: { url: string; drop(): Promise<void> };
  private env: Record<string, string> = {};
  private timer: NodeJS.Timeout | null = null;
  /** Changes of the Dresden feed so far; the feed's free spaces. */
  tick = 0;
  /** The feed's time of change 0 (ms, whole seconds): change n is stamped base + n s. */
  readonly base = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
  /** Lines the instances wrote to stderr (a crash's reason). */
  readonly errors: string[] = [];
  /** The instances' log lines about their stores (warnings and the recoveries that follow them), for a failure's message. */
  readonly storeLog: string[] = [];

  readonly opts: ClusterOptions;
  constructor(opts: ClusterOptions) {
    this.opts = opts;
  }

  /** The feed's `last_updated` of change n (ParkenDD writes UTC without a zone). */
  stampOf(n: number): string {
    return new Date(this.base + n * 1000).toISOString().slice(0, 19);
  }

  /** Starts everything; on a failure stops what was started and throws. */
  async start(): Promise<this> {
    try {
      return await this.startAll();
    } catch (err) {
      await this.stop().catch(() => undefined);
      throw err;
    }
  }

  private async startAll(): Promise<this> {
    await this.fake.start();
    registerAllFixtures(this.fake);
    const dresden = JSON.parse(fixture(DRESDEN_V1).toString('utf8')) as {
      last_updated: string;
      last_downloaded: string;
      lots: { name: string; free: number; total: number }[];
    };
    this.fake.get('/Dresden', () => {
      const lots = dresden.lots.map((l) => (l.name === 'Altmarkt-Galerie' ? { ...l, free: this.tick, total: 1_000_000 } : l));
      const stamp = this.stampOf(this.tick);
      return { json: { ...dresden, last_updated: stamp, last_downloaded: `${stamp}.000000`, lots } };
    });
    this.timer = setInterval(() => this.tick++, this.opts.tickMs);
    await this.redis.start();
    this.schema = await freshSchema();
    const direct = new URL(this.schema.url);
    this.pg = await tcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(this.schema.url);
    viaProxy.port = String(this.pg.port);
    this.env = {
      ...fakeEnv(this.fake.url),
      ...CREDENTIALS,
      ...privateStores(this.dir),
      REDIS_URL: this.redis.url,
      REDIS_KEY_PREFIX: this.prefix,
      DATABASE_URL: viaProxy.href,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      JOBS_ENABLED: 'false',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_MAX: String(this.opts.rateLimitMax),
      RATE_LIMIT_WINDOW_S: '60',
      STREAM_POLL_MS: String(this.opts.pollMs),
      SCALE_OUT_FRESH_MS: String(this.opts.pollMs),
      SHUTDOWN_GRACE_MS: '2000',
    };
    for (let i = 0; i < this.opts.instances; i++) this.ports.push(await freePort());
    await Promise.all(this.ports.map((_, i) => this.startInstance(i)));
    this.nginx = await startNginx(this.ports.map((p) => `127.0.0.1:${p}`));
    return this;
  }

  /** http://127.0.0.1:port of instance i (reached directly, past nginx). */
  instanceUrl(i: number): string {
    return `http://127.0.0.1:${this.ports[i]}`;
  }

  /** Starts instance i on its port (again); resolves once it listens. */
  async startInstance(i: number): Promise<void> {
    const child = spawn(process.execPath, [new URL('./instance.ts', import.meta.url).pathname], {
      env: { PATH: process.env.PATH, ...this.env, PORT: String(this.ports[i]) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stderr!.on('data', (c: Buffer) => this.errors.push(`instance ${i}: ${c.toString('utf8').slice(0, 2000)}`));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (/store|redis|postgres|history/i.test(line) && this.storeLog.length < 200)
        this.storeLog.push(`${new Date().toISOString().slice(11, 23)} instance ${i}: ${line.slice(0, 300)}`);
    });
    this.children[i] = child;
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`instance ${i} exited at start (${code}): ${this.errors.join('\n')}`)));
    });
  }

  /** SIGKILL to instance i: the abrupt end a crash or a lost node is. */
  async kill(i: number): Promise<void> {
    const c = this.children[i];
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
    this.children[i] = null;
  }

  /** A command connection to the cluster's Redis (the caller disconnects it). */
  redisClient(): Redis {
    return new Redis(this.redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  }

  /** The Redis stream holding the events of `key` (routes/streams.ts streamKey). */
  streamKey(key: string): string {
    return `${this.prefix}stream:${key}`;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.nginx?.stop();
    await Promise.all(
      this.children.map(async (c) => {
        if (!c || c.exitCode !== null || c.signalCode !== null) return;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        const force = setTimeout(() => c.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(force);
      }),
    );
    this.fake.dropConnections();
    await this.fake.stop();
    await this.redis.kill();
    await this.pg?.stop();
    await this.schema?.drop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
