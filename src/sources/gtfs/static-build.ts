import yauzl from 'yauzl';
import { parse } from 'csv-parse';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { UpstreamError } from '../../core/upstream-error.ts';
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

type Row = Record<string, string>;

function openZip(buf: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((res, rej) => yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => (err ? rej(err) : res(zip))));
}

function entryStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((res, rej) => zip.openReadStream(entry, (err, s) => (err ? rej(err) : res(s))));
}

const nullable = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v);
const float = (v: string | undefined) => {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : null;
};

async function eachRow(stream: Readable, onRow: (r: Row) => void): Promise<number> {
  const parser = stream.pipe(
    parse({ columns: (h: string[]) => h.map((c) => c.trim()), bom: true, relax_column_count: true, skip_empty_lines: true, trim: false }),
  );
  let n = 0;
  for await (const row of parser) {
    onRow(row as Row);
    n++;
  }
  return n;
}

export async function buildStaticIndex(zipBuf: Buffer, outPath: string, feedUrl: string, now = new Date()): Promise<StaticMeta> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(zipBuf);
  } catch (err) {
    throw new UpstreamError('parse', `static GTFS is not a zip: ${err instanceof Error ? err.message : String(err)}`);
  }
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
    await new Promise<void>((res, rej) => {
      zip.on('error', rej);
      zip.on('end', () => res());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.split('/').pop()!;
        const convert = toRow[name];
        if (!convert) {
          zip.readEntry();
          return;
        }
        seen.add(name);
        const table = name.replace('.txt', '') as keyof typeof ins;
        let batch: SqlValue[][] = [];
        const flush = (rows: SqlValue[][]) =>
          inTransaction(db, () => {
            for (const r of rows) ins[table].run(...r);
          });
        entryStream(zip, entry)
          .then((s) =>
            eachRow(s, (r) => {
              const v = convert(r);
              if (!v) return;
              batch.push(v);
              if (batch.length >= BATCH) {
                flush(batch);
                batch = [];
              }
            }),
          )
          .then(() => {
            flush(batch);
            counts[table] = Number(scalar(db.prepare(`SELECT count(*) FROM ${table}`)) ?? 0);
            zip.readEntry();
          })
          .catch(rej);
      });
      zip.readEntry();
    });
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
