import { z } from './schema.ts';
import { FormatDriftError } from './format-drift-error.ts';

/**
 * The members of an upstream answer an adapter depends on, checked where it parses: a required member missing or
 * of another type is format drift naming the answer and the member's JSON path ("PEGELONLINE stations.json
 * $[0].uuid: expected string, received number"); the pipeline then keeps serving the cached value and
 * /api/v1/sources shows the drift. Members an adapter can do without are declared optional (`.nullish()`) and
 * become null in the record. Shapes are loose: members the adapter does not read are never checked. `at` is the
 * path of `body` within the answer, when only a part of a large answer is checked.
 */
export function shaped<S extends z.ZodType>(schema: S, body: unknown, answer: string, at: readonly PropertyKey[] = []): z.output<S> {
  const checked = schema.safeParse(body);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  throw driftAt(answer, [...at, ...(issue?.path ?? [])], (issue?.message ?? 'rejected').replace(/^Invalid input: /, ''));
}

/** Format drift named as shaped() names it, for a check a shape cannot state (what several members hold together). */
export function driftAt(answer: string, path: readonly PropertyKey[], message: string): FormatDriftError {
  const member = jsonPath(path);
  return new FormatDriftError(`${answer} ${member}: ${message}`, member);
}

/**
 * A zod issue path as a JSON path: `$.data.stations[2].lat`; `$` is the answer itself. A key that is no plain name
 * (a time, a key with a space or a dot) is written in brackets, `$.data['2026-09-04 07:00:00']`, so the path still
 * reads as one member.
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const p of path) {
    const key = String(p);
    out += typeof p === 'number' ? `[${p}]` : /^[\p{L}\p{N}_$-]+$/u.test(key) ? `.${key}` : `['${key.replace(/['\\]/g, '\\$&')}']`;
  }
  return out;
}
