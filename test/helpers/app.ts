import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig } from '../../src/core/config.ts';
import { CATALOG } from '../../src/catalog/index.ts';
import { SqliteStore } from '../../src/store/sqlite.ts';
import type { Store } from '../../src/core/store.ts';
import type { Catalog } from '../../src/catalog/index.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import { checkServiceAnswer } from './service-answers.ts';
import { privateStores } from './stores.ts';

/** Environment pointing every source's base URL at the fake upstream, keeping the real path. */
export function fakeEnv(fakeUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const s of CATALOG.sources) {
    env[`${s.env}_BASE_URL`] = fakeUrl + new URL(s.baseUrl).pathname.replace(/\/+$/, '');
    for (const u of Object.values(s.urls ?? {})) {
      const real = new URL(u.default);
      env[u.env] = fakeUrl + real.pathname + real.search;
    }
  }
  return env;
}

export interface TestApp extends App {
  url: string;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function startApp(
  env: Record<string, string> = {},
  opts: { store?: Store; catalog?: Catalog; sources?: readonly SourceDecl[] } = {},
): Promise<TestApp> {
  // Tests send far more requests from one address than a client may: the per-client limit has
  // its own test (rate-limit.test.ts), which switches it on.
  const config = loadConfig(
    { LOG_LEVEL: 'silent', JOBS_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false', ...privateStores(), ...env },
    opts.sources ?? CATALOG.sources,
  );
  const built = await buildApp(config, { store: opts.store ?? new SqliteStore(':memory:'), catalog: opts.catalog, logger: false });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  return {
    ...built,
    url,
    get: async (path, headers = {}) => {
      const res = await get(url + path, headers);
      checkServiceAnswer(built.routes, path, res.status, res.json);
      return res;
    },
  };
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, json };
}
