import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { UpstreamError } from '../../core/upstream-error.ts';
import { ZipArchive } from '../../upstream/zip-archive.ts';
import { delimitedRowStream } from '../../core/delimited.ts';
import { cityOfStop } from './city-stops.ts';
import { parseGtfsTime } from './service-time.ts';
import { STATIC_INDEXES, STATIC_SCHEMA, type StaticMeta } from './static-index.ts';
import { inTransaction, openSqlite, scalar } from '../../store/sqlite-file.ts';

type SqlValue = string | number | null;

/**
 * Turns a static GTFS zip (gtfs.de / DELFI layout: any column order, optional BOM) into the
 * SQLite index of static-index.ts. Rows are streamed file by file into one transaction per
 * batch; the finished file replaces the old one by rename, so readers never see a half build.
 */
const BATCH = 20_000;
const REQUIRED = ['stops.txt', 'routes.txt', 'trips.txt', 'stop_times.txt'];
/** A feed holds a dozen tables; Germany's whole stop_times.txt is some GB. */
const ZIP_LIMITS = { label: 'static GTFS', maxMembers: 200 };
const MAX_TABLE_BYTES = 32 * 1024 ** 3;

type Row = Record<string, string>;

const nullable = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v);
const float = (v: string | undefined) => {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** Rows of one table as objects by header name (any column order, blanks around names dropped). */
async function eachRow(stream: Readable, table: string, onRow: (r: Row) => void): Promise<void> {
  let header: string[] | null = null;
  for await (const cells of delimitedRowStream(stream, { label: `static GTFS ${table}`, delimiter: ',', trim: false })) {
    if (!header) header = cells.map((c) => c.trim());
    else onRow(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
  }
}

export async function buildStaticIndex(zipBuf: Buffer, outPath: string, feedUrl: string, now = new Date()): Promise<StaticMeta> {
  const zip = await ZipArchive.open(zipBuf, ZIP_LIMITS);
  mkdirSync(dirname(outPath), { recursive: true });
  const tmp = `${outPath}.build-${process.pid}`;
  rmSync(tmp, { force: true });
  const db = openSqlite(tmp, { bulkLoad: true });
  db.exec(STATIC_SCHEMA);
  const ins = {
    stops: db.prepare('INSERT OR REPLACE INTO stops VALUES (?, ?, ?, ?, ?)'),
    routes: db.prepare('INSERT OR REPLACE INTO routes VALUES (?, ?, ?, ?, ?)'),
    trips: db.prepare('INSERT OR REPLACE INTO trips VALUES (?, ?, ?, ?, ?)'),
    stop_times: db.prepare('INSERT OR REPLACE INTO stop_times VALUES (?, ?, ?, ?, ?)'),
  };
  const toRow: Record<string, (r: Row) => SqlValue[] | null> = {
    'stops.txt': (r) => {
      if (!r.stop_id) return null;
      const lat = float(r.stop_lat),
        lon = float(r.stop_lon);
      return [r.stop_id, nullable(r.stop_name), lat, lon, cityOfStop(r.stop_id, lat, lon)];
    },
    'routes.txt': (r) =>
      r.route_id ? [r.route_id, nullable(r.route_short_name), nullable(r.route_long_name), float(r.route_type), nullable(r.agency_id)] : null,
    'trips.txt': (r) => (r.trip_id ? [r.trip_id, nullable(r.route_id), nullable(r.service_id), nullable(r.trip_headsign), nullable(r.trip_short_name)] : null),
    'stop_times.txt': (r) => {
      const seq = Number(r.stop_sequence);
      if (!r.trip_id || !Number.isInteger(seq)) return null;
      return [r.trip_id, seq, nullable(r.stop_id), parseGtfsTime(r.arrival_time), parseGtfsTime(r.departure_time)];
    },
  };
  const counts: Record<string, number> = {};
  try {
    const seen = new Set<string>();
    for (const member of zip.members) {
      const name = member.baseName;
      const convert = toRow[name];
      if (!convert) continue;
      seen.add(name);
      const table = name.replace('.txt', '') as keyof typeof ins;
      let batch: SqlValue[][] = [];
      const flush = (rows: SqlValue[][]) =>
        inTransaction(db, () => {
          for (const r of rows) ins[table].run(...r);
        });
      await eachRow(await zip.stream(member, MAX_TABLE_BYTES), name, (r) => {
        const v = convert(r);
        if (!v) return;
        batch.push(v);
        if (batch.length >= BATCH) {
          flush(batch);
          batch = [];
        }
      });
      flush(batch);
      counts[table] = Number(scalar(db.prepare(`SELECT count(*) FROM ${table}`)) ?? 0);
    }
    const missing = REQUIRED.filter((f) => !seen.has(f));
    if (missing.length) throw new UpstreamError('parse', `static GTFS lacks ${missing.join(', ')}`);
    db.exec(STATIC_INDEXES);
    const meta: StaticMeta = {
      built_at: now.toISOString(),
      feed_url: feedUrl,
      stops: counts.stops ?? 0,
      routes: counts.routes ?? 0,
      trips: counts.trips ?? 0,
      stop_times: counts.stop_times ?? 0,
    };
    const setMeta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    for (const [k, v] of Object.entries(meta)) setMeta.run(k, String(v));
    db.close();
    zip.close();
    renameSync(tmp, outPath);
    return meta;
  } catch (err) {
    if (db.isOpen) db.close();
    rmSync(tmp, { force: true });
    zip.close();
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError('parse', `static GTFS could not be indexed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
