import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { freePort } from './free-port.ts';

/**
 * The shipped proxy configurations (deploy/nginx/stadtdaten.conf, deploy/caddy/Caddyfile), run as shipped in front
 * of a running instance: the only edits are the lines each file marks "adjust" (instance address, listen address,
 * the cache folder or the admin endpoint), everything else in a temporary folder of the test's own.
 */
export interface Proxy {
  name: string;
  /** http://127.0.0.1:port */
  base: string;
  port: number;
  /** Whether the proxy keeps a shared cache (X-Cache-Status on its answers). */
  caches: boolean;
  /** Whether it compresses with brotli as well (nginx only with the Debian module installed). */
  brotli: boolean;
  /** The proxy's main process. */
  pid: number;
  stop(): Promise<void>;
}

const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const CADDY = process.env.CADDY ?? '/usr/bin/caddy';
/** Debian's libnginx-mod-http-brotli-filter; deploy/nginx/brotli.conf needs it. */
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so';

export const NGINX_MISSING = spawnSync(NGINX, ['-v']).error
  ? `${NGINX} not installed: nginx deploy test skipped (apt-get install nginx-light; .ci/run installs it)`
  : false;
export const CADDY_MISSING = spawnSync(CADDY, ['version']).error
  ? `${CADDY} not installed: Caddy deploy test skipped (apt-get install caddy; .ci/run installs it)`
  : false;

const shipped = (path: string) => readFileSync(new URL(`../../deploy/${path}`, import.meta.url), 'utf8');

/** Replaces each adjustable line, checking that the file marks exactly those. */
function adjust(text: string, marks: number, edits: [RegExp, string][]): string {
  assert.equal((text.match(/# adjust/g) ?? []).length, marks, 'the adjustable lines are marked');
  let out = text;
  for (const [re, to] of edits) {
    assert.match(out, re);
    out = out.replace(re, to);
  }
  return out;
}

async function waitUp(base: string, proc: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) break;
    if (
      await fetch(`${base}/api/v1/health`).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the proxy did not start: ${log()}`);
}

async function stopProcess(proc: ChildProcess, dir: string): Promise<void> {
  if (proc.exitCode === null && proc.signalCode === null) {
    proc.kill('SIGTERM');
    await once(proc, 'exit');
  }
  rmSync(dir, { recursive: true, force: true });
}

/** deploy/nginx/stadtdaten.conf in front of one or more instances (host:port); with brotli.conf too when the module is installed. */
export async function startNginx(instances: string | readonly string[]): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-nginx-'));
  const port = await freePort();
  const conf = adjust(shipped('nginx/stadtdaten.conf'), 3, [
    [
      /server 127\.0\.0\.1:3000;/,
      [instances]
        .flat()
        .map((i) => `server ${i};`)
        .join('\n  '),
    ],
    [/proxy_cache_path \/var\/cache\/nginx\/stadtdaten /, `proxy_cache_path ${dir}/cache `],
    [/listen 80 default_server;/, `listen 127.0.0.1:${port} default_server;`],
  ]);
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'stadtdaten.conf'), conf);
  const brotli = existsSync(BROTLI_MODULE);
  if (brotli) writeFileSync(join(dir, 'brotli.conf'), shipped('nginx/brotli.conf'));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/tmp/${t};`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${brotli ? `load_module ${BROTLI_MODULE};` : ''} ${process.getuid?.() === 0 ? 'user root root;' : ''}
     worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
     events { worker_connections 256; }
     http { access_log off; ${temp} include ${dir}/stadtdaten.conf; ${brotli ? `include ${dir}/brotli.conf;` : ''} }`,
  );
  const proc = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const base = `http://127.0.0.1:${port}`;
  await waitUp(base, proc, () => readFileSync(join(dir, 'error.log'), 'utf8'));
  return { name: 'nginx', base, port, caches: true, brotli, pid: proc.pid!, stop: () => stopProcess(proc, dir) };
}

/** deploy/caddy/Caddyfile in front of `instance` (host:port), its admin endpoint off and its state in a temporary folder. */
export async function startCaddy(instance: string): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-caddy-'));
  const port = await freePort();
  const conf = adjust(shipped('caddy/Caddyfile'), 3, [
    [/admin localhost:2019/, 'admin off'],
    [/^:80 \{/m, `:${port} {\n\tbind 127.0.0.1`],
    [/reverse_proxy 127\.0\.0\.1:3000/, `reverse_proxy ${instance}`],
  ]);
  writeFileSync(join(dir, 'Caddyfile'), conf);
  let log = '';
  const proc = spawn(CADDY, ['run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')], {
    env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  proc.stderr!.on('data', (c: Buffer) => (log = (log + c.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  await waitUp(base, proc, () => log);
  return { name: 'Caddy', base, port, caches: false, brotli: false, pid: proc.pid!, stop: () => stopProcess(proc, dir) };
}
