import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../core/store.ts';

/** Embedded default: one SQLite file, zero set-up, survives a restart. */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly q: Record<'get' | 'set' | 'del' | 'delExpired' | 'insertNew' | 'delIfEquals' | 'keys' | 'sweep', Database.Statement>;
  private readonly sweeper: NodeJS.Timeout;

  /** `path` is public so a helper process (the GTFS-RT poll child) can open the same file. */
  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL, exp INTEGER NOT NULL)');
    this.q = {
      get: this.db.prepare('SELECT v FROM kv WHERE k = ? AND (exp = 0 OR exp > ?)'),
      set: this.db.prepare('INSERT INTO kv (k, v, exp) VALUES (?, ?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v, exp = excluded.exp'),
      del: this.db.prepare('DELETE FROM kv WHERE k = ?'),
      delExpired: this.db.prepare('DELETE FROM kv WHERE k = ? AND exp <> 0 AND exp <= ?'),
      insertNew: this.db.prepare('INSERT OR IGNORE INTO kv (k, v, exp) VALUES (?, ?, ?)'),
      delIfEquals: this.db.prepare('DELETE FROM kv WHERE k = ? AND v = ?'),
      keys: this.db.prepare('SELECT k FROM kv WHERE k >= ? AND k < ? AND (exp = 0 OR exp > ?)'),
      sweep: this.db.prepare('DELETE FROM kv WHERE exp <> 0 AND exp <= ?'),
    };
    this.sweeper = setInterval(() => this.q.sweep.run(Date.now()), 60_000);
    this.sweeper.unref();
  }

  async get(key: string) {
    const row = this.q.get.get(key, Date.now()) as { v: string } | undefined;
    return row?.v ?? null;
  }
  async set(key: string, value: string, ttlMs?: number) {
    this.q.set.run(key, value, ttlMs ? Date.now() + ttlMs : 0);
  }
  async del(key: string) {
    this.q.del.run(key);
  }
  async setIfAbsent(key: string, value: string, ttlMs: number) {
    const now = Date.now();
    return this.db.transaction(() => {
      this.q.delExpired.run(key, now);
      return this.q.insertNew.run(key, value, now + ttlMs).changes === 1;
    })();
  }
  async delIfEquals(key: string, value: string) {
    this.q.delIfEquals.run(key, value);
  }
  async incr(key: string, ttlMs: number) {
    const now = Date.now();
    return this.db.transaction(() => {
      const row = this.q.get.get(key, now) as { v: string } | undefined;
      const n = (row ? Number(row.v) : 0) + 1;
      if (row) this.db.prepare('UPDATE kv SET v = ? WHERE k = ?').run(String(n), key);
      else this.q.set.run(key, String(n), now + ttlMs);
      return n;
    })();
  }
  async keys(prefix: string) {
    const rows = this.q.keys.all(prefix, prefix + '\uffff', Date.now()) as { k: string }[];
    return rows.map((r) => r.k);
  }
  async ping() {
    try {
      this.db.prepare('SELECT 1').get();
      return true;
    } catch {
      return false;
    }
  }
  async close() {
    clearInterval(this.sweeper);
    if (this.db.open) this.db.close();
  }
}
