import type { Config } from '../core/config.ts';
import type { Store } from '../core/store.ts';
import { PgHistoryStore } from './pg-store.ts';
import { Recorder, type RecorderLog } from './recorder.ts';
import { SqliteHistoryStore } from './sqlite-store.ts';
import type { HistoryStore } from './store.ts';

export { Recorder, storeName } from './recorder.ts';
export { historyJobs, cadenceSeconds } from './refresh-job.ts';
export { EVERY, type HistoryStore, type Row, type SeriesInfo, type Shaped, type FieldGaps } from './store.ts';

/**
 * The history store the settings name: PostgreSQL when DATABASE_URL is set, else the SQLite file
 * HISTORY_PATH; migrated. A PostgreSQL server that does not answer at start does not stop the
 * service: its store migrates on first use, and history answers say it is unavailable until then.
 */
export async function openHistoryStore(config: Config, log: RecorderLog): Promise<HistoryStore> {
  // The demo records and reads its own points; a live instance never sees them (nor the demo its).
  const opts = { origin: historyOrigin(config), readWorkers: config.historyReadWorkers };
  if (!config.databaseUrl) {
    const sqlite = new SqliteHistoryStore(config.historyPath, opts);
    await sqlite.migrate();
    return sqlite;
  }
  const store = new PgHistoryStore(config.databaseUrl, { ...opts, limits: config.historyPg });
  // The error's text may name the server's address: only that it failed is logged.
  await store
    .migrate()
    .catch(() => log.warn({ store: 'postgres' }, 'history store PostgreSQL (DATABASE_URL) not reachable at start; history is unavailable until it answers'));
  return store;
}

/** The origin an instance's history points carry and the only one it reads: 'demo' under DEMO=true, else 'live'. */
export function historyOrigin(config: Pick<Config, 'demo'>): 'demo' | 'live' {
  return config.demo ? 'demo' : 'live';
}

/** The recorder over that store, or null when HISTORY_ENABLED=false. */
export async function createRecorder(config: Config, lock: Store, log: RecorderLog): Promise<Recorder | null> {
  if (!config.historyEnabled) return null;
  return new Recorder(await openHistoryStore(config, log), lock, log, { bufferPoints: config.historyBufferPoints });
}
