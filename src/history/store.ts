/** One value to keep: a field of one type in one city at the upstream's own time `t` (epoch ms). */
export interface PointIn {
  type: string;
  city: string;
  field: string;
  unit: string;
  t: number;
  v: number | null;
  source: string;
  license: string;
  /** Read from the upstream's past (a backfill), not recorded as it was served. */
  backfilled: boolean;
}

/** One recorded series (type, city, field) with its extent. */
export interface SeriesInfo {
  field: string;
  unit: string;
  source: string;
  license: string;
  /** When the recording of this series started (epoch ms). */
  startedAt: number;
  first: number | null;
  last: number | null;
  points: number;
  backfilled: number;
}

/** One point as stored, or one downsampled bucket (`every`): t is the point's time or the bucket's start. */
export interface Row {
  field: string;
  t: number;
  min: number | null;
  mean: number | null;
  max: number | null;
  n: number;
  backfilled: boolean;
}

/** The empty buckets of one field in an answer: how many, and the first few spans. */
export interface FieldGaps {
  count: number;
  spans: { from: string; to: string }[];
}

/**
 * An answer's rows as the client sees them, shaped where the rows were read (a worker thread):
 * `data` is the UTF-8 text of the data array's contents (`{…},{…}`), in chunks of rows that start
 * at `offsets` (each but the last followed by a comma).
 */
export interface Shaped {
  data: Uint8Array;
  offsets: number[];
  /** SHA-256 of `data`: an answer's ETag without hashing its bytes again. */
  digest: string;
  total: number;
  backfilled: boolean;
  gaps: Record<string, FieldGaps>;
}

/** Cheap to read (no count over the points): what health reports. */
export interface HistorySize {
  series: number;
  bytes: number;
}

/**
 * Where the history lives: embedded SQLite (default) or PostgreSQL (DATABASE_URL). Times are epoch
 * milliseconds; a point is unique per series and time, so a value recorded twice is kept once.
 */
export interface HistoryStore {
  readonly kind: 'sqlite' | 'postgres';
  /** The origin this store writes and reads ('live', or 'demo' for the demo): others' points are never seen. */
  readonly origin: string;
  /** Applies the migrations not yet applied (schema_version). */
  migrate(): Promise<void>;
  /** Keeps the new points; returns how many were new. */
  insert(points: readonly PointIn[]): Promise<number>;
  series(type: string, city: string): Promise<SeriesInfo[]>;
  /** Points in [from, to) per field, or buckets of `everyMs` with min/mean/max/count when everyMs > 0. */
  rows(type: string, city: string, from: number, to: number, everyMs: number): Promise<Row[]>;
  /**
   * The rows of `rows()` shaped for an answer, off the event loop (a worker thread), or null when
   * there are more than `limit`; each field's first `gapsListed` gaps are listed.
   */
  answer(type: string, city: string, from: number, to: number, everyMs: number, limit: number, gapsListed: number): Promise<Shaped | null>;
  /** The newest value per field at or before `t`. */
  at(type: string, city: string, t: number): Promise<{ field: string; unit: string; t: number; v: number | null; source: string; license: string }[]>;
  /** Cities with a recording of `type`. */
  cities(type: string): Promise<string[]>;
  /** When the recording of `type` started (in `city`, else anywhere; epoch ms), or null. */
  startedAt(type: string, city?: string): Promise<number | null>;
  /** Drops points of `type` of the whole days before `before`; returns how many. */
  prune(type: string, before: number): Promise<number>;
  size(): Promise<HistorySize>;
  close(): Promise<void>;
}

export const DAY_MS = 86_400_000;

/**
 * Splits [from, to) into the whole UTC days the daily rollups answer and the partial days at its
 * edges, which are read from the points: [head, days, tail], each [start, end) (empty when start >= end).
 */
type Span = [number, number];
export function daySpans(from: number, to: number): [Span, Span, Span] {
  const first = Math.ceil(from / DAY_MS) * DAY_MS;
  const last = Math.floor(to / DAY_MS) * DAY_MS;
  if (first >= last)
    return [
      [from, to],
      [0, 0],
      [0, 0],
    ];
  return [
    [from, first],
    [first, last],
    [last, to],
  ];
}

/** Bucket widths `every` takes. */
export const EVERY: Record<string, number> = { '15m': 900_000, '1h': 3_600_000, '1d': 86_400_000 };
