import type { Config } from '../config.ts';
import type { Store } from '../core/store.ts';
import { PgHistoryStore } from './pg-store.ts';
import { Recorder, type RecorderLog } from './recorder.ts';
import { SqliteHistoryStore } from './sqlite-store.ts';
import type { HistoryStore } from './store.ts';

export { Recorder } from './recorder.ts';
export { historyJobs, cadenceSeconds } from './refresh-job.ts';
export { EVERY, type HistoryStore, type Row, type SeriesInfo } from './store.ts';

/**
 * The history store the settings name: PostgreSQL when DATABASE_URL is set, else the SQLite file
 * HISTORY_PATH; migrated. A PostgreSQL server that does not answer at start does not stop the
 * service: its store migrates on first use, and history answers say it is unavailable until then.
 */
export async function openHistoryStore(config: Config, log: RecorderLog): Promise<HistoryStore> {
  if (!config.databaseUrl) {
    const sqlite = new SqliteHistoryStore(config.historyPath);
    await sqlite.migrate();
    return sqlite;
  }
  const store = new PgHistoryStore(config.databaseUrl);
  // The error's text may name the server's address: only that it failed is logged.
  await store.migrate().catch(() => log.warn({}, 'history database (DATABASE_URL) not reachable at start; history is unavailable until it answers'));
  return store;
}

/** The recorder over that store, or null when HISTORY_ENABLED=false. */
export async function createRecorder(config: Config, lock: Store, log: RecorderLog): Promise<Recorder | null> {
  if (!config.historyEnabled) return null;
  return new Recorder(await openHistoryStore(config, log), lock, log);
}
