import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../core/store.ts';
import { inTransaction, openSqlite, prepareRaw, type DatabaseSync, type StatementSync } from './sqlite-file.ts';

type Query = 'get' | 'set' | 'update' | 'del' | 'delExpired' | 'insertNew' | 'delIfEquals' | 'keys' | 'sweep' | 'ping';

/** Embedded default: one SQLite file (Node's built-in node:sqlite), zero set-up, survives a restart. */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: DatabaseSync;
  private readonly q: Record<Query, StatementSync>;
  private readonly sweeper: NodeJS.Timeout;

  readonly path: string;
  /** `path` is public so a helper process (the GTFS-RT poll child) can open the same file. */
  constructor(path: string) {
    this.path = path;
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = openSqlite(path);
    this.db.exec('CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, exp INTEGER NOT NULL)');
    this.q = {
      // Rows as arrays: node:sqlite builds no object per row (measurably cheaper, bench/store.ts).
      get: prepareRaw(this.db, 'SELECT v FROM kv WHERE k = ? AND (exp = 0 OR exp > ?)'),
      set: this.db.prepare('INSERT INTO kv (k, v, exp) VALUES (?, ?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v, exp = excluded.exp'),
      update: this.db.prepare('UPDATE kv SET v = ? WHERE k = ?'),
      del: this.db.prepare('DELETE FROM kv WHERE k = ?'),
      delExpired: this.db.prepare('DELETE FROM kv WHERE k = ? AND exp <> 0 AND exp <= ?'),
      insertNew: this.db.prepare('INSERT OR IGNORE INTO kv (k, v, exp) VALUES (?, ?, ?)'),
      delIfEquals: this.db.prepare('DELETE FROM kv WHERE k = ? AND v = ?'),
      keys: prepareRaw(this.db, 'SELECT k FROM kv WHERE k >= ? AND k < ? AND (exp = 0 OR exp > ?)'),
      sweep: this.db.prepare('DELETE FROM kv WHERE exp <> 0 AND exp <= ?'),
      ping: this.db.prepare('SELECT 1'),
    };
    this.sweeper = setInterval(() => this.q.sweep.run(Date.now()), 60_000);
    this.sweeper.unref();
  }

  async get(key: string) {
    const row = this.q.get.get(key, Date.now()) as unknown as [string] | undefined;
    return row?.[0] ?? null;
  }
  async set(key: string, value: string, ttlMs?: number) {
    this.q.set.run(key, value, ttlMs ? Date.now() + ttlMs : 0);
  }
  async del(key: string) {
    this.q.del.run(key);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const now = Date.now();
    return inTransaction(this.db, () => {
      this.q.delExpired.run(key, now);
      return Number(this.q.insertNew.run(key, value, now + ttlMs).changes) === 1;
    });
  }
  async delIfEquals(key: string, value: string) {
    this.q.delIfEquals.run(key, value);
  }
  async incr(key: string, ttlMs: number) {
    const now = Date.now();
    return inTransaction(this.db, () => {
      const row = this.q.get.get(key, now) as unknown as [string] | undefined;
      const n = (row ? Number(row[0]) : 0) + 1;
      if (row) this.q.update.run(String(n), key);
      else this.q.set.run(key, String(n), now + ttlMs);
      return n;
    });
  }
  async keys(prefix: string) {
    const rows = this.q.keys.all(prefix, prefix + '\uffff', Date.now()) as unknown as [string][];
    return rows.map((r) => r[0]);
  }
  async ping() {
    try {
      this.q.ping.get();
      return true;
    } catch {
      return false;
    }
  }
  async close() {
    clearInterval(this.sweeper);
    if (this.db.isOpen) this.db.close();
  }
}
