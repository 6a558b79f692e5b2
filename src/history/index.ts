import type { Config } from '../config.ts';
import type { Store } from '../core/store.ts';
import { PgHistoryStore } from './pg-store.ts';
import { Recorder, type RecorderLog } from './recorder.ts';
import { SqliteHistoryStore } from './sqlite-store.ts';
import type { HistoryStore } from './store.ts';

export { Recorder } from './recorder.ts';
export { historyJobs, cadenceSeconds } from './refresh-job.ts';
export { EVERY, type HistoryStore, type Row, type SeriesInfo } from './store.ts';

/** The history store the settings name: PostgreSQL when DATABASE_URL is set, else the SQLite file HISTORY_PATH; migrated. */
export async function openHistoryStore(config: Config): Promise<HistoryStore> {
  const store = config.databaseUrl ? new PgHistoryStore(config.databaseUrl) : new SqliteHistoryStore(config.historyPath);
  await store.migrate();
  return store;
}

/** The recorder over that store, or null when HISTORY_ENABLED=false. */
export async function createRecorder(config: Config, lock: Store, log: RecorderLog): Promise<Recorder | null> {
  if (!config.historyEnabled) return null;
  return new Recorder(await openHistoryStore(config), lock, log);
}
