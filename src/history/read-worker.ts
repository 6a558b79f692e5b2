import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../store/sqlite-file.ts';
import type { ReadRequest, ReadResponse, ReadWorkerData } from './read-protocol.ts';
import { answerOf, unpackRows } from './shape.ts';
import { SqliteReads } from './sqlite-reads.ts';

/**
 * A history read worker: the range queries and the shaping of their rows (zoned times, JSON) run
 * here, so a year of quarter hours never holds the server's event loop. It reads the SQLite file
 * through a read-only connection of its own (WAL: the writer on the main thread never waits for it).
 */
const data = workerData as ReadWorkerData;
const reads = data.path === null ? null : new SqliteReads(openSqlite(data.path, { readOnly: true }), data.origin);

function handle(req: ReadRequest): unknown {
  if (req.op === 'answer') {
    const rows = req.packed ? unpackRows(req.packed) : must().rows(req.type, req.city, req.from, req.to, req.everyMs, req.limit);
    return answerOf(rows, req.everyMs, req.limit, req.gapsListed);
  }
  const r = must();
  const [a, b, c] = req.args;
  switch (req.method) {
    case 'series':
      return r.series(String(a), String(b));
    case 'at':
      return r.at(String(a), String(b), Number(c));
    case 'cities':
      return r.cities(String(a));
    case 'startedAt':
      return r.startedAt(String(a), b === undefined ? undefined : String(b));
    case 'size':
      return r.size();
  }
}

function must(): SqliteReads {
  if (!reads) throw new Error('this worker reads no SQLite file');
  return reads;
}

parentPort!.on('message', (req: ReadRequest) => {
  let res: ReadResponse;
  try {
    res = { id: req.id, ok: true, value: handle(req) };
  } catch (err) {
    res = { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  // An answer's bytes move to the main thread instead of being copied.
  const data = res.ok && res.value !== null && typeof res.value === 'object' && 'data' in res.value ? (res.value as { data: Uint8Array }).data : null;
  parentPort!.postMessage(res, data ? [data.buffer as ArrayBuffer] : []);
});
