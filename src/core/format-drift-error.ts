import { z } from './schema.ts';
import { UpstreamError } from './upstream-error.ts';

/**
 * An upstream answered, but not in the format its adapter knows: the adapter's output failed its
 * record schema, or the normaliser refused it. A parse failure like any other (kind `parse`), so
 * it counts for the breaker and a cached value is served as STALE-ON-ERROR.
 */
export class FormatDriftError extends UpstreamError {
  override name = 'FormatDriftError';
  /** The member the first failure is about (`items[0].lat`), null when none is known. */
  readonly member: string | null;
  constructor(message: string, member: string | null = null) {
    super('parse', message);
    this.member = member;
  }
}

/** A schema path as it reads in a record: `items[3].lat`; the empty path is the record itself. */
export function memberPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(the record)';
}

/** The first issue of a failed schema check as one line naming the member (`station.lat: expected number, received string`). */
export function firstIssue(error: z.ZodError): { member: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { member: '(the record)', message: 'rejected' };
  const keys = issue.code === 'unrecognized_keys' ? ` ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}` : '';
  const message =
    issue.code === 'unrecognized_keys' ? `unknown member${issue.keys.length > 1 ? 's' : ''}${keys}` : issue.message.replace(/^Invalid input: /, '');
  return { member: memberPath(issue.path), message };
}

/** Checks `data` (normalised, as it is sent) against `schema`; a mismatch is a FormatDriftError naming the member. */
export function checkAgainst(schema: z.ZodType, data: unknown): void {
  if (data === null) return;
  const checked = schema.safeParse(data);
  if (checked.success) return;
  const { member, message } = firstIssue(checked.error);
  throw new FormatDriftError(`record schema: ${member}: ${message}`, member);
}

/**
 * Whether a failed fetch says the upstream's format changed, rather than that it was unreachable,
 * slow or refused: a record that fails its schema, a parser rejecting an answer served with a
 * success status (a renamed member, an HTML page, an empty body), or an adapter tripping over a
 * member that is not where it used to be.
 */
export function isFormatDrift(err: unknown): boolean {
  if (err instanceof FormatDriftError) return true;
  if (err instanceof UpstreamError) return err.kind === 'parse' && (err.status === undefined || (err.status >= 200 && err.status < 300));
  return err instanceof z.ZodError || err instanceof TypeError || err instanceof SyntaxError || err instanceof RangeError;
}

/** A failure as one short line without hosts, ports or URLs (it is shown in /api/v1/sources). */
export function driftMessage(err: unknown): string {
  const m = err instanceof z.ZodError ? (({ member, message }) => `${member}: ${message}`)(firstIssue(err)) : err instanceof Error ? err.message : String(err);
  // An IPv6 address in brackets has a colon; a JSON path's index (`$.features[2]`) has none and is kept.
  return m.replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\[[0-9a-f]*:[0-9a-f:]*\](?::\d+)?|https?:\/\/\S+/gi, '<upstream>').slice(0, 300);
}
