import { FORMATS, type Format } from '../../core/formats.ts';
import { ProblemError } from '../../core/problem.ts';

/** The media type of each format, as Content-Type and as Accept names it. */
export const MEDIA_TYPES: Record<Format, string> = { json: 'application/json', csv: 'text/csv', geojson: 'application/geo+json' };

interface Range {
  type: string;
  subtype: string;
  q: number;
}

/** RFC 9110 §12.5.1: the media ranges of an Accept header with their weights (malformed parts skipped). */
function rangesOf(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',')) {
    const [mt = '', ...params] = part.split(';');
    const m = /^\s*([\w.+*-]+)\/([\w.+*-]+)\s*$/.exec(mt);
    if (!m) continue;
    let q = 1;
    for (const p of params) {
      const qm = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (qm) q = Number(qm[1]);
    }
    out.push({ type: m[1]!.toLowerCase(), subtype: m[2]!.toLowerCase(), q });
  }
  return out;
}

/** The weight the client gives a media type: that of the most specific range naming it (0 when none does). */
function weightOf(ranges: readonly Range[], media: string): number {
  const [type, subtype] = media.split('/');
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity > best) [best, q] = [specificity, r.q];
  }
  return q;
}

/** The offered format the Accept header weighs highest (ties: the earlier in `offered`, JSON first), or null for none. */
export function fromAccept(accept: string | undefined, offered: readonly Format[]): Format | null {
  if (accept === undefined || accept.trim() === '') return offered[0] ?? null;
  const ranges = rangesOf(accept);
  if (ranges.length === 0) return offered[0] ?? null;
  let pick: Format | null = null;
  let top = 0;
  for (const f of offered) {
    const q = weightOf(ranges, MEDIA_TYPES[f]);
    if (q > top) [pick, top] = [f, q];
  }
  return pick;
}

/**
 * Whether a request asks for something other than JSON through Accept: the HIT lane (which only
 * has JSON bytes) then leaves it to the router. Fast for what nearly every request sends.
 */
export function acceptsOtherThanJson(accept: string | string[] | undefined): boolean {
  if (accept === undefined || accept === '*/*' || accept === 'application/json') return false;
  return fromAccept(String(accept), FORMATS) !== 'json';
}

/**
 * The format a request gets: `?format=` when given (it wins over Accept), else Accept's
 * choice among the offered formats. An unknown `format` value is a 422 (the value is not
 * echoed); a known format the type does not offer, or an Accept naming none it offers, a 406.
 */
export function negotiate(query: Record<string, unknown>, accept: string | undefined, offered: readonly Format[]): Format {
  const raw = query.format;
  if (raw !== undefined) {
    if (typeof raw !== 'string' || !(FORMATS as readonly string[]).includes(raw)) {
      throw new ProblemError('invalid_parameter', 'format is not a known format', `format must be one of: ${FORMATS.join(', ')}.`, {
        parameter: 'format',
        allowed: [...FORMATS],
      });
    }
    if (offered.includes(raw as Format)) return raw as Format;
    throw notAcceptable(offered, `this route has no ${raw} form`);
  }
  const picked = fromAccept(accept, offered);
  if (picked === null) throw notAcceptable(offered, 'none of the media types in Accept is offered here');
  return picked;
}

function notAcceptable(offered: readonly Format[], detail: string): ProblemError {
  const list = offered.map((f) => `${f} (${MEDIA_TYPES[f]})`).join(', ');
  return new ProblemError('not_acceptable', detail, `This route answers in: ${list}. Ask with ?format= or the Accept header.`, {
    formats: [...offered],
    media_types: offered.map((f) => MEDIA_TYPES[f]),
  });
}
