/**
 * The history schema as ordered migrations, one statement list per engine. A store applies those
 * above its schema_version in order, each in one transaction with its version row. Append only:
 * an applied migration is never edited.
 */
export interface Migration {
  version: number;
  sqlite: string[];
  postgres: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sqlite: [
      `CREATE TABLE history_series (id INTEGER PRIMARY KEY, type TEXT NOT NULL, city TEXT NOT NULL, field TEXT NOT NULL, unit TEXT NOT NULL,
        source TEXT NOT NULL, license TEXT NOT NULL, started_at INTEGER NOT NULL, UNIQUE (type, city, field))`,
      // Clustered on (series, t): a series' range is one contiguous read.
      `CREATE TABLE history_points (series_id INTEGER NOT NULL, t INTEGER NOT NULL, v REAL, backfilled INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (series_id, t)) WITHOUT ROWID`,
    ],
    postgres: [
      `CREATE TABLE history_series (id SERIAL PRIMARY KEY, type TEXT NOT NULL, city TEXT NOT NULL, field TEXT NOT NULL, unit TEXT NOT NULL,
        source TEXT NOT NULL, license TEXT NOT NULL, started_at BIGINT NOT NULL, UNIQUE (type, city, field))`,
      `CREATE TABLE history_points (series_id INTEGER NOT NULL REFERENCES history_series (id) ON DELETE CASCADE, t BIGINT NOT NULL,
        v DOUBLE PRECISION, backfilled BOOLEAN NOT NULL DEFAULT FALSE, PRIMARY KEY (series_id, t))`,
    ],
  },
];

export const SCHEMA_VERSION_TABLE = {
  sqlite: 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  postgres: 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
};
