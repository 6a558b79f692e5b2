import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let ownDir: string | undefined;

/** A temporary folder of this process's own, made on first use and removed at exit. */
function processDir(): string {
  if (ownDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-stores-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    ownDir = dir;
  }
  return ownDir;
}

/**
 * The store settings for an instance a test, bench or the demo starts: never the checkout's `data/` (the defaults of
 * STORE_PATH and HISTORY_PATH, and the GTFS index next to the store file), and neither a PostgreSQL nor a Redis named
 * by the environment or `.env` (a deployment's DATABASE_URL or REDIS_URL): an empty value set in the environment wins
 * over `.env`. With `dir` (a temporary folder the caller made) both SQLite files lie there; without, STORE_PATH names
 * a file in a temporary folder of this process (where the GTFS index goes even when the caller hands the app a store
 * of its own) and the history is in memory, one per app.
 */
export function privateStores(dir?: string): Record<'STORE_PATH' | 'HISTORY_PATH' | 'DATABASE_URL' | 'REDIS_URL', string> {
  return {
    STORE_PATH: join(dir ?? processDir(), 'store.sqlite'),
    HISTORY_PATH: dir ? join(dir, 'history.sqlite') : ':memory:',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
}
