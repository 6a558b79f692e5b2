import assert from 'node:assert/strict';
import type { FakeUpstream } from './fake-upstream.ts';
import { fakeEnv, startApp, type TestApp } from './app.ts';
import { at, str } from './json.ts';

/** The status rules every data type shares (SPEC): one assertion body each, named tests stay in the files. */

export async function expectUnknownCity(app: TestApp, path: string): Promise<void> {
  const r = await app.get(path);
  assert.equal(r.status, 404, path);
  assert.equal(at(r.json, 'code'), 'city_not_found', path);
}

export interface DisabledCase {
  fake: FakeUpstream;
  /** Added to fakeEnv: the toggle (`<ENV>_ENABLED: 'false'`) plus any credentials. */
  env: Record<string, string>;
  path: string | readonly string[];
  /** The disabled app may add no hit below this prefix; '' (the default) means no hit at all. */
  upstreamPrefix?: string;
}

/** Toggle off → 200 disabled, data null, and the upstream is never asked. */
export async function expectDisabled({ fake, env, path, upstreamPrefix = '' }: DisabledCase): Promise<void> {
  // Counted from here, so a test may check other rules against the same fake first.
  const hitsBefore = fake.count(upstreamPrefix);
  const off = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    for (const p of [path].flat()) {
      const r = await off.get(p);
      assert.equal(r.status, 200, p);
      assert.equal(at(r.json, 'data'), null, p);
      assert.equal(at(r.json, 'meta.source_status'), 'disabled', p);
    }
    assert.equal(fake.count(upstreamPrefix), hitsBefore);
  } finally {
    await off.close();
  }
}

export interface UnavailableCase {
  fake: FakeUpstream;
  path: string | readonly string[];
  /** Added to fakeEnv, e.g. credentials so the source is enabled at all. */
  env?: Record<string, string>;
  /** How the upstream fails: connection reset (default) or HTTP 503. */
  mode?: 'down' | 'error';
}

/** Dead upstream and a fresh app (nothing cached) → 503 upstream_unavailable pointing to /api/v1/health. */
export async function expectUnavailable({ fake, path, env = {}, mode = 'down' }: UnavailableCase): Promise<void> {
  const fresh = await startApp({ ...fakeEnv(fake.url), ...env });
  try {
    fake.mode = mode;
    for (const p of [path].flat()) {
      const r = await fresh.get(p);
      assert.equal(r.status, 503, p);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable', p);
      assert.match(str(r.json, 'hint'), /\/api\/v1\/health/, p);
    }
  } finally {
    fake.mode = 'normal';
    await fresh.close();
  }
}
