import { findCity, resolveCity } from '../cities/resolve.ts';
import { fillTemplate, routePath, type DataType } from '../core/data-type.ts';
import { cleanedInput, ProblemError } from '../core/problem.ts';
import { nearest } from '../core/suggest.ts';
import { toBerlinIso } from '../core/time.ts';
import { cadenceSeconds, EVERY, storeName, type FieldGaps, type Recorder, type SeriesInfo } from '../history/index.ts';
import { etagOfParts } from '../http/conditional.ts';
import { HistoryAnswerCache, type HistoryAnswerParts } from './history-cache.ts';
import type { Catalog } from '../catalog/index.ts';
import type { Envelope, ServiceContext } from './context.ts';

/** Without `every`, points are returned as recorded for at most this span (a year of 15-minute points per field otherwise). */
export const RAW_MAX_DAYS = 31;
/** Most buckets per field in one answer (a year of hours fits; a year of quarter hours does not). */
export const MAX_BUCKETS = 10_000;
/** Default span when `from` is not given. */
const DEFAULT_DAYS = 7;
const DAY = 86_400_000;
/** Gaps listed per series in meta (the count says how many there are). */
const GAPS_LISTED = 20;

export const EVERY_VALUES = Object.keys(EVERY);

/** The data types recorded over time (declared `history` in the catalog), per city. */
export function recordableTypes(catalog: Catalog): DataType[] {
  return catalog.all.filter((dt) => dt.history && dt.scope !== 'global');
}

/** ISO date or date-time (`2026-11-01`, `2026-11-01T12:00Z`, with seconds and offset), as epoch ms; null when absent. */
export function parseTime(raw: unknown, name: string): number | null {
  if (raw === undefined || raw === '') return null;
  const s = typeof raw === 'string' ? raw : '';
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(s);
  const t = ok ? Date.parse(/T/.test(s) ? s : `${s}T00:00Z`) : NaN;
  // The value is never echoed: only the parameter's name and the format it takes.
  if (!Number.isFinite(t))
    throw new ProblemError(
      'invalid_parameter',
      `"${name}" is not an ISO date or date-time`,
      `Pass ${name} like 2026-11-01 or 2026-11-01T12:00Z (a zone is required with a time).`,
      {
        parameter: name,
      },
    );
  return t;
}

/** A store call whose failure (a database that went away) is a 503 problem naming the store, never a 500. */
async function fromStore<T>(recorder: Recorder, read: () => Promise<T>): Promise<T> {
  try {
    const v = await read();
    recorder.noteStore(true);
    return v;
  } catch {
    recorder.noteStore(false);
    throw new ProblemError(
      'history_store_unavailable',
      `the history store (${storeName(recorder.store)}) is not reachable`,
      'Retry later; the recorder keeps new points until it answers. GET /api/v1/health shows the state of the history store.',
      { store: recorder.store.kind },
    );
  }
}

function recorderOf(ctx: ServiceContext): Recorder {
  if (!ctx.history)
    throw new ProblemError(
      'route_not_found',
      'history is switched off on this server',
      'The operator has set HISTORY_ENABLED=false; the current values are at the data type routes.',
    );
  return ctx.history;
}

/** The canonical history path of a type in a city (`{city}` left as it is when the city is not known). */
export function historyPath(type: string, slug: string | null): string {
  return `/api/v1/cities/${slug ?? '{city}'}/${type}/history`;
}

/**
 * The recordable type named `name`, else a 404 whose hint names the history path to ask instead
 * (the nearest recordable type's, for the city asked when it resolves) and the recordable types.
 */
export function recordableType(catalog: Catalog, name: string, city: string): DataType {
  const recordable = recordableTypes(catalog);
  const dt = recordable.find((d) => d.type === name);
  if (dt) return dt;
  const names = recordable.map((d) => d.type);
  const near = nearest(name, names);
  const known = catalog.byType.has(name);
  const suggested = near && near !== name ? historyPath(near, findCity(city)?.slug ?? null) : null;
  throw new ProblemError(
    'route_not_found',
    known ? 'this data type is not recorded over time' : 'unknown data type',
    `${suggested ? `Did you mean ${suggested}? ` : ''}History is kept for: ${names.join(', ')} (GET ${historyPath('{type}', null)}).`,
    suggested ? { suggestion: near, suggested_path: suggested } : {},
  );
}

function seriesMeta(info: SeriesInfo, gaps: FieldGaps | undefined, everyMs: number) {
  return {
    field: info.field,
    unit: info.unit,
    source: info.source,
    license: info.license,
    recording_started: toBerlinIso(info.startedAt),
    first: info.first === null ? null : toBerlinIso(info.first),
    last: info.last === null ? null : toBerlinIso(info.last),
    points: info.points,
    backfilled_points: info.backfilled,
    ...(everyMs > 0 ? { gaps: gaps?.count ?? 0, gap_spans: gaps?.spans ?? [] } : {}),
  };
}

/** The answer caches of the recorders (one per app). */
const caches = new WeakMap<Recorder, HistoryAnswerCache>();

/**
 * GET /api/v1/cities/{city}/{type}/history: the recorded values of one type in one city between
 * `from` and `to`, as recorded (`as_of` per point) or downsampled into `every` buckets with
 * min/mean/max. Rows are flat (one per time and field) so they map onto a table. The rows are read
 * and shaped off the event loop; the answer is kept per range for the type's cache window.
 */
export async function cityHistoryParts(ctx: ServiceContext, slug: string, typeName: string, query: Record<string, unknown>): Promise<HistoryAnswerParts> {
  const dt = recordableType(ctx.rt.catalog, typeName, slug);
  const city = resolveCity(slug);
  const recorder = recorderOf(ctx);
  const every = typeof query.every === 'string' && query.every !== '' ? query.every : null;
  if (query.every !== undefined && (every === null || !(every in EVERY)))
    throw new ProblemError('invalid_parameter', 'unknown every', `every must be one of: ${EVERY_VALUES.join(', ')}.`, {
      parameter: 'every',
      allowed: EVERY_VALUES,
    });
  const everyMs = every ? EVERY[every]! : 0;
  const givenTo = parseTime(query.to, 'to');
  const givenFrom = parseTime(query.from, 'from');
  const to = givenTo ?? Date.now();
  const from = givenFrom ?? to - DEFAULT_DAYS * DAY;
  if (from >= to) throw new ProblemError('invalid_parameter', '"from" must be before "to"', 'Pass from < to (ISO times).', { parameter: 'from' });
  if (!every && to - from > RAW_MAX_DAYS * DAY)
    throw new ProblemError(
      'invalid_parameter',
      `without every the span is at most ${RAW_MAX_DAYS} days`,
      `Pass every (${EVERY_VALUES.join(', ')}) to downsample a longer span, or narrow from/to.`,
      { parameter: 'every' },
    );
  if (every && (to - from) / everyMs > MAX_BUCKETS)
    throw new ProblemError(
      'invalid_parameter',
      `at most ${MAX_BUCKETS} buckets per field`,
      `Pass a wider every (${EVERY_VALUES.join(', ')}) or narrow from/to: every=15m spans up to ${Math.floor((MAX_BUCKETS * EVERY['15m']!) / DAY)} days, every=1h up to ${Math.floor((MAX_BUCKETS * EVERY['1h']!) / DAY)}.`,
      { parameter: 'every' },
    );
  const maxPoints = ctx.rt.config.historyMaxPoints;
  const fieldCount = dt.history!.fields.length;
  // Buckets are known before reading: a span whose buckets exceed the budget is refused without touching the store.
  if (every && Math.ceil((to - from) / everyMs) * fieldCount > maxPoints) throw tooManyPoints(maxPoints, every);
  let cache = caches.get(recorder);
  if (!cache) caches.set(recorder, (cache = new HistoryAnswerCache(ctx.rt.config.historyCacheBytes)));
  const key = [dt.type, city.slug, givenFrom ?? 'd', givenTo ?? 'now', everyMs, recorder.generation(dt.type, city.slug)].join('\u0000');
  return cache.get(key, cadenceSeconds(dt) * 1000, async () => {
    const read = (span: { from: number; to: number }) => recorder.store.answer(dt.type, city.slug, span.from, span.to, everyMs, maxPoints, GAPS_LISTED);
    let span = { from, to };
    let latest: number | null = null;
    const [series, shaped] = await fromStore(recorder, async () => {
      if (givenFrom !== null || givenTo !== null) return Promise.all([recorder.store.series(dt.type, city.slug), read(span)]);
      // No range asked for: the last 7 days, or, when nothing was recorded in them, the 7 days up to the latest point.
      const known = await recorder.store.series(dt.type, city.slug);
      const last = Math.max(...known.map((x) => x.last ?? -Infinity));
      if (Number.isFinite(last) && last < from) {
        latest = last;
        span = { from: last + 1 - DEFAULT_DAYS * DAY, to: last + 1 };
      }
      return [known, await read(span)] as const;
    });
    if (shaped === null) throw tooManyPoints(maxPoints, every);
    const meta: Record<string, unknown> = {
      type: dt.type,
      city: city.slug,
      source_status: shaped.total ? 'ok' : 'no_data',
      from: toBerlinIso(span.from),
      to: toBerlinIso(span.to),
      every,
      fields: dt.history!.fields.map((f) => ({ name: f.name, unit: f.unit })),
      series: series.map((s) => seriesMeta(s, shaped.gaps[s.field], everyMs)),
      backfilled: shaped.backfilled,
      total: shaped.total,
    };
    if (!shaped.total) {
      const started = series.length ? Math.min(...series.map((s) => s.startedAt)) : await fromStore(recorder, () => recorder.store.startedAt(dt.type));
      meta.recording_started = started === null ? null : toBerlinIso(started);
      meta.note = series.length
        ? 'nothing was recorded in this span'
        : `${dt.type} has no recording for ${city.slug} yet; recording starts with its first answer (GET ${pathOf(dt, city.slug)})`;
    }
    if (latest !== null)
      meta.note = `nothing was recorded in the last ${DEFAULT_DAYS} days; without from/to the span ends at the latest recorded point (${toBerlinIso(latest)})`;
    if (ctx.rt.config.demo) meta.demo = true;
    const metaJson = JSON.stringify(meta);
    const data = Buffer.from(shaped.data.buffer, shaped.data.byteOffset, shaped.data.length);
    const body: HistoryAnswerParts['body'] = [Buffer.from('{"data":['), data, Buffer.from(`],"meta":${metaJson}}`)];
    return { body, chunks: shaped.offsets, meta, etag: etagOfParts(shaped.digest, '\u0000', metaJson) };
  });
}

/** The rows of an answer, parsed one chunk per turn of the event loop (a large CSV never holds it). */
export async function historyRows(parts: HistoryAnswerParts): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let i = 0; i < parts.chunks.length; i++) {
    if (i) await new Promise((r) => setImmediate(r));
    // Each chunk but the last ends with the comma before the next.
    const data = parts.body[1];
    const end = i + 1 < parts.chunks.length ? parts.chunks[i + 1]! - 1 : data.length;
    for (const row of JSON.parse(`[${data.toString('utf8', parts.chunks[i], end)}]`) as unknown[]) rows.push(row);
  }
  return rows;
}

/** The same answer as an envelope (MCP). */
export async function cityHistory(ctx: ServiceContext, slug: string, typeName: string, query: Record<string, unknown>): Promise<Envelope> {
  const parts = await cityHistoryParts(ctx, slug, typeName, query);
  return { data: await historyRows(parts), meta: parts.meta };
}

function tooManyPoints(maxPoints: number, every: string | null): ProblemError {
  const coarser = EVERY_VALUES.filter((e) => every === null || EVERY[e]! > EVERY[every]!);
  return new ProblemError(
    'invalid_parameter',
    `the span holds more than ${maxPoints} rows (points or buckets of all fields)`,
    coarser.length
      ? `Pass a coarser every (${coarser.join(', ')}) or a shorter from/to; every=1d reads a year as 365 rows per field.`
      : 'Pass a shorter from/to, or split the span into several requests.',
    { parameter: every === null ? 'every' : 'from', max_rows: maxPoints },
  );
}

function pathOf(dt: DataType, slug: string): string {
  return fillTemplate(routePath(dt), { city: slug });
}

/** One city of `compare?at=`: the recorded fields' values at or before that moment. */
export interface HistoricItem {
  city: string;
  data: Record<string, number | null> | null;
  source_status: 'ok' | 'no_data' | 'not_found' | 'error';
  value?: number | null;
  as_of?: string;
  note?: string;
}

/** `compare?resource=…&at=…`: each city's recorded values at a past moment, from history. */
export async function compareAt(ctx: ServiceContext, dt: DataType, names: string[], at: number, lister: string): Promise<HistoricItem[]> {
  const recorder = recorderOf(ctx);
  const decl = dt.history;
  if (!decl) {
    const recorded = recordableTypes(ctx.rt.catalog)
      .map((d) => d.compare?.resource)
      .filter(Boolean);
    throw new ProblemError('invalid_request', 'this resource is not recorded over time', `at works for: ${recorded.join(', ')}.`, { parameter: 'at' });
  }
  const valueField = decl.fields.find((f) => f.path === dt.compare?.value)?.name;
  return Promise.all(
    names.map(async (name): Promise<HistoricItem> => {
      const city = findCity(name);
      if (!city) return { city: cleanedInput(name), data: null, source_status: 'not_found', note: `unknown city; ${lister} lists the slugs` };
      const noValue = dt.compare?.value ? { value: null } : {};
      // A city whose read fails says so; the others still answer.
      const values = await recorder.store.at(dt.type, city.slug, at).then(
        (v) => (recorder.noteStore(true), v),
        () => (recorder.noteStore(false), null),
      );
      if (values === null)
        return { city: city.slug, data: null, source_status: 'error', ...noValue, note: `the history store (${storeName(recorder.store)}) is not reachable` };
      if (!values.length) {
        const started = await recorder.store.startedAt(dt.type, city.slug).catch(() => null);
        return {
          city: city.slug,
          data: null,
          source_status: 'no_data',
          ...noValue,
          note: started === null ? 'no recording for this city yet' : `nothing recorded before that moment; recording started ${toBerlinIso(started)}`,
        };
      }
      const data = Object.fromEntries(values.map((v) => [v.field, v.v]));
      return {
        city: city.slug,
        data,
        source_status: 'ok',
        ...(dt.compare?.value ? { value: valueField ? (data[valueField] ?? null) : null } : {}),
        as_of: toBerlinIso(Math.max(...values.map((v) => v.t))),
      };
    }),
  );
}

/** What /api/v1/health says about the history: where it is kept and how large it is. */
export async function historyHealth(ctx: Pick<ServiceContext, 'history'>) {
  if (!ctx.history) return { enabled: false as const };
  const recorder = ctx.history;
  const state = { enabled: true as const, kind: recorder.store.kind, buffered_points: recorder.buffered, dropped_points: recorder.dropped };
  try {
    const size = await recorder.store.size();
    recorder.noteStore(true);
    return { ...state, reachable: true, series: size.series, bytes: size.bytes };
  } catch {
    recorder.noteStore(false);
    return { ...state, reachable: false, series: null, bytes: null };
  }
}
