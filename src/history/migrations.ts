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
  {
    // Daily rollups, kept with every insert: a year downsampled to 1d reads 365 rows per field, not 35,040, and a
    // series' counts come from them. n counts values, points every point (null values too), backfilled those backfilled.
    version: 2,
    sqlite: [
      `CREATE TABLE history_daily (series_id INTEGER NOT NULL, day INTEGER NOT NULL, min REAL, max REAL, sum REAL, n INTEGER NOT NULL,
        points INTEGER NOT NULL, backfilled INTEGER NOT NULL, PRIMARY KEY (series_id, day)) WITHOUT ROWID`,
      `INSERT INTO history_daily SELECT series_id, (t / 86400000) * 86400000, MIN(v), MAX(v), SUM(v), COUNT(v), COUNT(*), SUM(backfilled)
        FROM history_points GROUP BY series_id, t / 86400000`,
    ],
    postgres: [
      `CREATE TABLE history_daily (series_id INTEGER NOT NULL REFERENCES history_series (id) ON DELETE CASCADE, day BIGINT NOT NULL,
        min DOUBLE PRECISION, max DOUBLE PRECISION, sum DOUBLE PRECISION, n INTEGER NOT NULL, points INTEGER NOT NULL,
        backfilled INTEGER NOT NULL, PRIMARY KEY (series_id, day))`,
      `INSERT INTO history_daily SELECT series_id, (t / 86400000) * 86400000, MIN(v), MAX(v), SUM(v), COUNT(v), COUNT(*),
        COUNT(*) FILTER (WHERE backfilled) FROM history_points GROUP BY series_id, t / 86400000`,
    ],
  },
  {
    // Where a point comes from: the demo's and the fixtures' recordings never show in a live instance's answers.
    // A series is one per origin; the series recorded before this migration were recorded live.
    version: 3,
    sqlite: [
      `CREATE TABLE history_series_v3 (id INTEGER PRIMARY KEY, type TEXT NOT NULL, city TEXT NOT NULL, field TEXT NOT NULL, unit TEXT NOT NULL,
        source TEXT NOT NULL, license TEXT NOT NULL, started_at INTEGER NOT NULL, origin TEXT NOT NULL DEFAULT 'live', UNIQUE (type, city, field, origin))`,
      `INSERT INTO history_series_v3 (id, type, city, field, unit, source, license, started_at)
        SELECT id, type, city, field, unit, source, license, started_at FROM history_series`,
      'DROP TABLE history_series',
      'ALTER TABLE history_series_v3 RENAME TO history_series',
    ],
    postgres: [
      `ALTER TABLE history_series ADD COLUMN origin TEXT NOT NULL DEFAULT 'live'`,
      'ALTER TABLE history_series DROP CONSTRAINT history_series_type_city_field_key',
      'ALTER TABLE history_series ADD CONSTRAINT history_series_origin_key UNIQUE (type, city, field, origin)',
    ],
  },
];

export const SCHEMA_VERSION_TABLE = {
  sqlite: 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  postgres: 'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
};
