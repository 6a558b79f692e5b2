import type { PackedRows } from './shape.ts';

/** What a history read worker (read-worker.ts) is started with: the SQLite file it reads (null: it only shapes rows) and the origin it reads. */
export interface ReadWorkerData {
  path: string | null;
  origin: string;
}

/** A range's answer: read and shaped (SQLite), or shaped from rows read elsewhere (`packed`, PostgreSQL). */
export interface AnswerRequest {
  op: 'answer';
  type: string;
  city: string;
  from: number;
  to: number;
  everyMs: number;
  limit: number;
  gapsListed: number;
  packed?: PackedRows;
}

/** One of the small reads of SqliteReads. */
export interface CallRequest {
  op: 'call';
  method: 'series' | 'at' | 'cities' | 'startedAt' | 'size';
  args: (string | number)[];
}

export type ReadRequest = (AnswerRequest | CallRequest) & { id: number };

export type ReadResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };
