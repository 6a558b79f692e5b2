import type { City } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import type { DataType } from '../core/data-type.ts';
import { forCity, forParams, type Form } from '../core/forms.ts';
import { parseParams } from '../core/params.ts';
import { ProblemError } from '../core/problem.ts';
import { parsePageRequest, type Channel, type PageRequest } from '../http/pagination.ts';
import { normaliseQuery } from './query.ts';
import type { Runtime } from './runtime.ts';

export interface RunOptions {
  channel?: Channel;
  /** Skip page/limit handling (compare and overview use whole records). */
  noPaging?: boolean;
  /** The request had no query string: its HIT answer may be prepared once and reused. */
  plain?: boolean;
}

/** Stage 1 of the request path: what the request asks for, resolved against the catalog and the settings. */
export interface Resolved {
  declared: DataType;
  /** Null for global data types. */
  city: City | null;
  /** The form of the primary that answers this city (or parameter value), whatever the settings say. */
  form: Form;
  /** The form that answers with the current settings: `form`, or its stand-in's; null when neither source is usable. */
  answering: Form | null;
  params: Record<string, unknown>;
  page: PageRequest | null;
  channel: Channel;
  opts: RunOptions;
  /** The meta members every answer to this request carries (type, city, source, licence, …). */
  meta: Record<string, unknown>;
}

/**
 * Resolves the city (404 with a did-you-mean hint), the primary source (by city, or by the path
 * parameter that picks one), the settings' answer to it (its stand-in when its source is
 * unusable), the parameters (422) and the page request.
 */
export function resolve(rt: Runtime, declared: DataType, cityInput: string | City | null, query: Record<string, unknown>, opts: RunOptions): Resolved {
  const city = declared.scope === 'global' ? null : typeof cityInput === 'string' ? resolveCity(cityInput) : cityInput;
  if (declared.scope !== 'global' && !city) throw new ProblemError('city_not_found', 'no city given', 'GET /api/v1/cities lists the city slugs.');
  const normalised = normaliseQuery(query);
  // A global type whose path parameter picks the primary (e.g. the charging operator) reads it first.
  const pickingParams = city === null && declared.variantParam ? parseParams(declared.params ?? [], normalised) : null;
  const form = city ? forCity(declared, city.slug) : forParams(declared, pickingParams ?? {});
  const answering = rt.answering(form);
  const answer = answering ?? form;
  const params = pickingParams ?? parseParams(answer.params ?? [], normalised);
  const page = answer.list && !opts.noPaging ? parsePageRequest(query) : null;
  return { declared, city, form, answering, params, page, channel: opts.channel ?? 'rest', opts, meta: metaOf(rt, answer, city) };
}

/** The request as the stand-in that answers while the resolved form's source fails (Runtime.failover). */
export function answeredBy(rt: Runtime, r: Resolved, standIn: Form): Resolved {
  return { ...r, answering: standIn, meta: metaOf(rt, standIn, r.city) };
}

/** The meta members naming the type, city and the source that answers (and, for a stand-in, whom it stands in for). */
function metaOf(rt: Runtime, answer: Form, city: City | null): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    type: answer.type,
    ...(city ? { city: city.slug } : {}),
    source: answer.source.id,
    license: answer.source.license,
    tier: answer.source.tier,
  };
  if (rt.config.demo) meta.demo = true;
  if (answer.standingInFor) {
    meta.answered_by = answer.source.id;
    meta.fallback_for = answer.standingInFor.id;
    if (answer.answer.role !== 'primary') meta.fallback_note = answer.answer.note;
  } else if (answer.standIn?.role === 'failover') {
    // A type with a stand-in for failures names its answering source either way.
    meta.answered_by = answer.source.id;
  }
  return meta;
}
