import { DatabaseSync, type StatementSync } from 'node:sqlite';

export type { DatabaseSync, StatementSync };

/**
 * Node's built-in SQLite (`node:sqlite`, no native addon to compile or download): one place that
 * opens a database file, so every SQLite user gets the same pragmas and error behaviour.
 */
export function openSqlite(path: string, opts: { readOnly?: boolean; bulkLoad?: boolean } = {}): DatabaseSync {
  // The same busy wait as before (5 s): the poll child and the server share the store's file.
  const db = new DatabaseSync(path, { readOnly: opts.readOnly === true, timeout: 5000 });
  if (opts.bulkLoad) {
    // A file built once and renamed into place: no journal, no fsync until it is complete.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
  } else if (!opts.readOnly && path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  }
  return db;
}

/** Runs `fn` in one transaction: committed when it returns, rolled back when it throws. */
export function inTransaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = fn();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/** A prepared statement whose rows come back as arrays (column order of the SELECT). */
export function prepareRaw(db: DatabaseSync, sql: string): StatementSync {
  const st = db.prepare(sql);
  st.setReturnArrays(true);
  return st;
}

/** The first column of the first row, or undefined. */
export function scalar(st: StatementSync, ...params: (string | number | null)[]): unknown {
  const row = st.get(...params);
  return row ? Object.values(row)[0] : undefined;
}
