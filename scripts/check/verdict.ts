import { driftMessage, isFormatDrift } from '../../src/core/format-drift-error.ts';
import { ProblemError } from '../../src/core/problem.ts';
import type { SourceSettings } from '../../src/core/config.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import { UpstreamError } from '../../src/core/upstream-error.ts';
import type { Exchange } from '../../src/upstream/client.ts';

/** The last upstream answer a check read: enough to say what came instead of the known format. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The first bytes of the body, and its whole size. */
  head: string;
  bytes: number;
}

export function answerOf(e: Exchange): Answer {
  return { status: e.status, headers: e.headers, head: e.body.subarray(0, 60).toString('utf8').replace(/\s+/g, ' ').trim(), bytes: e.body.length };
}

/** What the check says about one data type in one city. */
export type Verdict = 'ok' | 'no_data' | 'disabled' | 'parse_error' | 'http_error';

export const VERDICTS: readonly Verdict[] = ['ok', 'no_data', 'disabled', 'parse_error', 'http_error'];

export interface Finding {
  verdict: Verdict;
  detail: string;
}

/** Why a source is not called here, naming the variable that changes it. */
export function disabledDetail(src: SourceDecl, settings: SourceSettings): string {
  if (!settings.enabled) return `${src.env}_ENABLED=false${src.offReason ? `: ${src.offReason}` : ''}`;
  return `credentials missing: set ${settings.missingCredentials.join(', ')}`;
}

/**
 * A failed fetch as a verdict: a format the adapter or the record schema rejects is a
 * `parse_error` naming the member; an error status, no answer at all, or a refusal before the
 * call is an `http_error`. `answer` is the last upstream answer this check read, when one was.
 */
export function failureFinding(err: unknown, answer: Answer | undefined): Finding {
  if (isFormatDrift(err)) return { verdict: 'parse_error', detail: `${driftMessage(err)}${answerNote(answer)}` };
  if (err instanceof UpstreamError) {
    switch (err.kind) {
      case 'status':
      case 'rate_limited':
        return { verdict: 'http_error', detail: `HTTP ${err.status ?? answer?.status ?? '?'}${contentNote(answer)}` };
      case 'parse':
        return { verdict: 'parse_error', detail: `${driftMessage(err)} (HTTP ${err.status ?? answer?.status ?? '?'})` };
      case 'timeout':
        return { verdict: 'http_error', detail: 'no answer: timeout' };
      case 'network':
        return { verdict: 'http_error', detail: `no answer: ${err.message}` };
      default:
        return { verdict: 'http_error', detail: `${err.kind}: ${driftMessage(err)}` };
    }
  }
  if (err instanceof ProblemError) return { verdict: 'http_error', detail: `${err.code}: ${err.detail}` };
  const name = (err as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { verdict: 'http_error', detail: 'no answer within FETCH_DEADLINE_MS' };
  if (name === 'BrokenCircuitError') return { verdict: 'http_error', detail: 'not called: the source failed repeatedly in this run (breaker open)' };
  return { verdict: 'http_error', detail: driftMessage(err) };
}

/** What the upstream sent, for a parse error: status, type and the first bytes (an HTML page, an empty body). */
function answerNote(a: Answer | undefined): string {
  if (!a) return '';
  const type = a.headers['content-type'] ?? '';
  // The first bytes say what came instead (an HTML page, a maintenance note); a JSON or XML answer speaks through the member named.
  const head =
    a.bytes === 0
      ? 'empty body'
      : /^\s*[{[]|^\s*<\?xml/.test(a.head) && !/html/.test(type)
        ? `${a.bytes} bytes`
        : `${a.bytes} bytes: ${JSON.stringify(a.head)}`;
  return ` (HTTP ${a.status}${type ? `, ${type}` : ''}, ${head})`;
}

function contentNote(a: Answer | undefined): string {
  return a?.headers['content-type'] ? ` (${a.headers['content-type']})` : '';
}

/** A one-line summary of a record or list: its size and its first few filled values. */
export function summarise(data: unknown, max = 110): string {
  let out: string;
  if (Array.isArray(data)) out = `${data.length} item${data.length === 1 ? '' : 's'}${data.length ? `; first: ${scalars(data[0])}` : ''}`;
  else out = scalars(data);
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

function scalars(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const parts: string[] = [];
  collect(v as Record<string, unknown>, '', 0, parts);
  return parts.join(', ') || '(no filled members)';
}

/** Up to four filled members: scalars and list sizes first, then those of nested records (`pv_yield.annual_kwh_per_kwp=1208.4`). */
function collect(v: Record<string, unknown>, prefix: string, depth: number, parts: string[]) {
  const nested: [string, Record<string, unknown>][] = [];
  for (const [k, x] of Object.entries(v)) {
    if (parts.length >= 4) return;
    if (x === null || x === undefined) continue;
    if (Array.isArray(x)) parts.push(`${prefix}${k}: ${x.length} items`);
    else if (typeof x === 'object') nested.push([k, x as Record<string, unknown>]);
    else parts.push(`${prefix}${k}=${typeof x === 'string' ? x.slice(0, 30) : String(x)}`);
  }
  if (depth < 2 && parts.length < 2) for (const [k, x] of nested) collect(x, `${prefix}${k}.`, depth + 1, parts);
}
