import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests use (PostgreSQL 15 on this machine and in CI: trust auth, user postgres, db test). */
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * True when PostgreSQL answers; with CI=true an unreachable server fails the run instead of skipping its tests.
 * A server that is down refuses at once; the generous timeout is for a loaded machine, where five test processes
 * starting together once kept a 2-second connect from completing (a CI run failed on it, PostgreSQL up throughout).
 */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 20_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error(`CI: PostgreSQL is not reachable at ${PG_URL}; .ci/run starts it`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema of its own for one test run (dropped by `drop`), and the DATABASE_URL that puts it first on the search path. */
export async function freshSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `h_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}
