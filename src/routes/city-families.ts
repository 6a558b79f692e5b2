import type { FastifyReply, FastifyRequest } from 'fastify';
import type { City } from '../cities/register.ts';
import { findCity, resolveCity } from '../cities/resolve.ts';
import { routePath, type DataType } from '../core/data-type.ts';
import { cityParam } from './context.ts';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** One path of a family for one city: the type answering it, and for a deprecated alias its successor template. */
export interface Member {
  dt: DataType;
  /** The canonical path template this alias is deprecated for, or null for the canonical path itself. */
  successor: string | null;
}

/**
 * Literal per-city paths (e.g. /api/v1/live/hamburg/departures) and the template path of the
 * same shape (/api/v1/live/{city}/departures) form one family: the city segment is a city like
 * anywhere else, so `Hamburg`, `frankfurt` or `Nuremberg` reach the literal path's type exactly as
 * its canonical slug does. A city without a literal path of its own is answered by the family's
 * template type, or, where the family has none, `not_covered` with the cities it serves.
 */
export interface Family {
  /** The route template with the city as `{city}`. */
  template: string;
  /** Literal members by canonical city slug. */
  members: ReadonlyMap<string, Member>;
  /** The type registered at the template itself (answers every other city), if any. */
  general: Member | null;
}

/** The families of a catalog: only shapes with at least one literal per-city path. */
export function cityFamilies(types: readonly DataType[]): Family[] {
  const byTemplate = new Map<string, { members: Map<string, Member>; general: Member | null }>();
  const family = (template: string) => {
    let f = byTemplate.get(template);
    if (!f) byTemplate.set(template, (f = { members: new Map(), general: null }));
    return f;
  };
  for (const dt of types) {
    const paths = [{ path: routePath(dt), successor: null as string | null }, ...(dt.aliases ?? []).map((a) => ({ path: a, successor: routePath(dt) }))];
    for (const { path, successor } of paths) {
      if (!dt.fixedCity) continue;
      const literal = `/${dt.fixedCity}/`;
      if (path.includes(literal)) family(path.replace(literal, '/{city}/')).members.set(dt.fixedCity, { dt, successor });
    }
  }
  for (const dt of types) {
    if (dt.fixedCity) continue;
    for (const [path, successor] of [[routePath(dt), null], ...(dt.aliases ?? []).map((a) => [a, routePath(dt)] as const)] as const) {
      const f = byTemplate.get(path);
      if (f) f.general = { dt, successor };
    }
  }
  return [...byTemplate].map(([template, f]) => ({ template, members: f.members, general: f.general }));
}

/** The family whose template is `path` (a type's route or alias), if any. */
export function familyAt(families: readonly Family[], path: string): Family | undefined {
  return families.find((f) => f.template === path);
}

/**
 * The handler of a family's template route: the literal member for the requested city when it
 * has one, else `fallback` (the general type's own handler, or the not_covered answer).
 */
export function dispatching(family: Family, handlerOf: (m: Member) => Handler, fallback: Handler): Handler {
  const handlers = new Map([...family.members].map(([slug, m]) => [slug, handlerOf(m)]));
  return async (req, reply) => {
    const city: City | null = findCity(cityParam(req));
    const own = city ? handlers.get(city.slug) : undefined;
    return (own ?? fallback)(req, reply);
  };
}

/**
 * A family without a template type: the meta of a city that resolves but has no literal path of
 * the family (not_covered, with the cities it serves); an unknown city is a 404 with a hint.
 */
export function notCoveredIn(family: Family, demo: boolean): (req: FastifyRequest) => Record<string, unknown> {
  const covered = [...family.members.keys()].sort();
  const types = [...new Set([...family.members.values()].map((m) => m.dt.type))];
  return (req) => {
    const city = resolveCity(cityParam(req));
    return {
      types,
      city: city.slug,
      covered_cities: covered,
      note: `${family.template.replace('{city}', city.slug)} is served for ${covered.join(', ')} only`,
      ...(demo ? { demo: true } : {}),
      source_status: 'not_covered',
    };
  };
}
