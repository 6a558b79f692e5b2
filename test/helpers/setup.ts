import { before, after, beforeEach } from 'node:test';
import { FakeUpstream } from './fake-upstream.ts';
import { fakeEnv, startApp, type TestApp, type TestResponse } from './app.ts';

export interface FakeAppContext {
  /** Created at once (started before the first test), so it can be destructured at module level. */
  readonly fake: FakeUpstream;
  readonly app: TestApp;
  /** A second app without `env` (credentials), for the "disabled without credentials" rule. */
  readonly keyless: TestApp;
  /**
   * One request on a fresh app (empty cache) against the same fake, for answers that must not
   * come from an earlier test's cache entry; `env` is added to the fake's URLs.
   */
  freshGet(path: string, env?: Record<string, string>): Promise<TestResponse>;
}

export interface FakeAppOptions {
  /** Added to fakeEnv for `app`, typically the credentials a source needs. */
  env?: Record<string, string>;
  keyless?: boolean;
}

/**
 * One fake upstream for a whole test file, for tests that start their own apps: started before the
 * first test, stopped after the last, and before each test reset with `register`'s fixtures put
 * back on top of any route a test overrode. Call at module level.
 */
export function useFakeUpstream(register: (fake: FakeUpstream) => void, around: FakeLifecycle = {}): FakeUpstream {
  const fake = new FakeUpstream();
  // One hook each way: root-level hooks of a file do not wait for each other, so what needs the fake runs inside them.
  before(async () => {
    await fake.start();
    await around.started?.();
  });
  after(async () => {
    await around.stopping?.();
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    register(fake);
  });
  return fake;
}

/** What runs right after the fake has started and right before it stops. */
export interface FakeLifecycle {
  started?: () => Promise<void>;
  stopping?: () => Promise<void>;
}

/**
 * One fake upstream and one app for a whole test file. Before each test the fake forgets its
 * hits and mode and `register` puts the family's fixtures back on top of any route a test
 * overrode, so tests do not leak into each other. Call at module level.
 */
export function useFakeApp(register: (fake: FakeUpstream) => void, opts: FakeAppOptions = {}): FakeAppContext {
  let app: TestApp | undefined;
  let keyless: TestApp | undefined;
  const fake = useFakeUpstream(register, {
    started: async () => {
      app = await startApp({ ...fakeEnv(fake.url), ...opts.env });
      if (opts.keyless) keyless = await startApp(fakeEnv(fake.url));
    },
    stopping: async () => {
      await app?.close();
      await keyless?.close();
    },
  });
  return {
    fake,
    get app() {
      return started(app, 'app');
    },
    get keyless() {
      return started(keyless, 'keyless (pass { keyless: true })');
    },
    async freshGet(path, env = {}) {
      const fresh = await startApp({ ...fakeEnv(fake.url), ...env });
      try {
        return await fresh.get(path);
      } finally {
        await fresh.close();
      }
    },
  };
}

function started(app: TestApp | undefined, name: string): TestApp {
  if (!app) throw new Error(`useFakeApp: ${name} is not started`);
  return app;
}
