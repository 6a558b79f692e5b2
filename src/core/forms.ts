import type { ScheduledJob } from './job.ts';
import type { SourceDecl } from './source.ts';
import { defaultPrimary, primariesOf, sameFor, type Adapter, type AnsweringSource, type DataType, type StandInSource, type TypeSource } from './data-type.ts';

/**
 * A data type as one of its sources answers it: a primary, or a stand-in or failover in a
 * primary's place (see TypeSource). What the pipeline runs and the aggregates (coverage,
 * overview, states) tell; the declared type itself names no single source.
 */
export interface Form extends DataType {
  /** The listed source that answers in this form. */
  answer: AnsweringSource;
  source: SourceDecl;
  adapter: Adapter<unknown>;
  /** What its adapter may read a part from (FetchContext.part): its own source and the `part` sources listed for its cities. */
  parts: readonly SourceDecl[];
  /** The jobs that write what the answering source's adapter reads (stored data). */
  jobs: readonly ScheduledJob[];
  /** On a primary's form: the stand-in or failover listed for it. */
  standIn?: StandInSource;
  /** On a stand-in's or failover's form: the source of the primary it answers for (meta.fallback_for). */
  standingInFor?: SourceDecl;
}

/** One form per type and listed source, so that per-form caches (hit sources, states) work by identity. */
const forms = new WeakMap<DataType, Map<AnsweringSource, Form>>();
/** The declared type of each form. */
const declaredOf = new WeakMap<Form, DataType>();

/** Whether `part` is a part source listed for some city (or value) that `answering` answers for. */
function partOf(dt: DataType, answering: AnsweringSource, part: TypeSource): boolean {
  if (part.role !== 'part') return false;
  if (!part.for) return true;
  if (answering.for) return part.for.some((c) => answering.for!.includes(c));
  // The default primary answers every city no other primary names.
  const named = new Set(primariesOf(dt).flatMap((p) => p.for ?? []));
  return part.for.some((c) => !named.has(c));
}

/** The data type as `answer` (one of its listed sources) answers it. */
export function formOf(dt: DataType, answer: AnsweringSource): Form {
  let known = forms.get(dt);
  if (!known) forms.set(dt, (known = new Map()));
  let form = known.get(answer);
  if (!form) {
    const standIn =
      answer.role === 'primary'
        ? dt.sources.find((s): s is StandInSource => s.role !== 'primary' && s.role !== 'part' && sameFor(s.for, answer.for))
        : undefined;
    const primary = answer.role === 'primary' ? undefined : primariesOf(dt).find((p) => sameFor(p.for, answer.for));
    form = {
      ...dt,
      answer,
      source: answer.source,
      adapter: answer.adapter,
      cache: answer.cache ?? dt.cache,
      parts: [...new Set([answer.source, ...dt.sources.filter((s) => partOf(dt, answer, s)).map((s) => s.source)])],
      jobs: answer.jobs ?? [],
      ...(standIn ? { standIn } : {}),
      ...(primary ? { standingInFor: primary.source } : {}),
    };
    known.set(answer, form);
    declaredOf.set(form, dt);
  }
  return form;
}

/** The primary that answers `key` (a city slug, or a `variantParam` value): the one naming it, else the default one. */
function primaryFor(dt: DataType, key: string | undefined) {
  return (key === undefined ? undefined : primariesOf(dt).find((s) => s.for?.includes(key))) ?? defaultPrimary(dt);
}

/** The form that answers `slug`, before settings are looked at: its primary's. */
export function forCity(dt: DataType, slug: string): Form {
  return formOf(dt, primaryFor(dt, slug));
}

/** The form that answers these parameters (global types: by the `variantParam` value), before settings are looked at. */
export function forParams(dt: DataType, params: Record<string, unknown>): Form {
  const value = dt.variantParam ? params[dt.variantParam] : undefined;
  return formOf(dt, primaryFor(dt, typeof value === 'string' ? value : undefined));
}

/** The form of the default primary: the source that answers every city no other primary names. */
export function mainForm(dt: DataType): Form {
  return formOf(dt, defaultPrimary(dt));
}

/** Every primary's form, default first as listed: for coverage and state views. */
export function formsOf(dt: DataType): Form[] {
  return primariesOf(dt).map((s) => formOf(dt, s));
}

/** The form of the stand-in or failover listed for this primary's form, or null. */
export function standInForm(form: Form): Form | null {
  return form.standIn ? formOf(declaredOf.get(form)!, form.standIn) : null;
}

/** Every source a data type lists, whatever its role. */
export function sourcesOf(dt: DataType): SourceDecl[] {
  return [...new Set(dt.sources.map((s) => s.source))];
}

/** The jobs that fill what a data type's sources read. */
export function jobsOf(dt: DataType): ScheduledJob[] {
  return [...new Set(dt.sources.flatMap((s) => (s.role === 'part' ? [] : (s.jobs ?? []))))];
}

/**
 * What a listed source does for its type, in words for the docs (empty for a type's only
 * primary): "for koeln", "elsewhere", "in place of db-stada while it is unusable", …
 */
export function roleText(dt: DataType, s: DataType['sources'][number]): string {
  const where = s.for ? `for ${s.for.join(', ')}` : '';
  const primary = () => primariesOf(dt).find((p) => sameFor(p.for, s.for))!.source.id;
  switch (s.role) {
    case 'primary':
      return where || (primariesOf(dt).length > 1 ? 'elsewhere' : '');
    case 'stand-in':
      return [`in place of ${primary()} while it is switched off or lacks credentials`, where].filter(Boolean).join(' ');
    case 'failover':
      return [`in place of ${primary()} while it fails`, where].filter(Boolean).join(' ');
    case 'part':
      return ['part of the answer', where].filter(Boolean).join(' ');
  }
}

/** The form that answers the type's declared example request. */
export function exampleForm(dt: DataType): Form {
  return dt.example.city ? forCity(dt, dt.example.city) : forParams(dt, dt.example.params ?? {});
}
