import type { FastifyInstance } from 'fastify';
import { cleanedInput, ProblemError, quotedInput } from '../core/problem.ts';
import { findCity } from '../cities/resolve.ts';
import { nearest } from '../core/suggest.ts';
import { cityParam, type RouteContext } from './context.ts';

/** Per-city route families: `/api/v1/cities/{city}/<type>` and `/api/v1/live/{city}/<type>`. */
const FAMILIES = [
  { prefix: '/api/v1/cities/:city/', base: '/api/v1/cities/' },
  { prefix: '/api/v1/live/:city/', base: '/api/v1/live/' },
] as const;

/**
 * `/api/v1/cities/{city}/<typo>` and `/api/v1/live/{city}/<typo>`: every real per-city route is
 * a static segment and wins over these parametric ones, so only unknown suffixes land here and
 * get a did-you-mean 404.
 */
export function registerUnknownType(app: FastifyInstance, ctx: RouteContext) {
  for (const family of FAMILIES) registerFamily(app, ctx, family);
}

function registerFamily(app: FastifyInstance, ctx: RouteContext, { prefix, base }: (typeof FAMILIES)[number]) {
  let suffixes: string[] | null = null;
  // One-segment suffixes of the family, including those of fixed-city routes (`/api/v1/live/nuernberg/departures`).
  const known = () =>
    (suffixes ??= [
      ...new Set(
        ctx.routes
          .map((r) => r.url)
          .filter((u) => u.startsWith(base))
          .map((u) => u.slice(base.length).split('/'))
          .filter((parts) => parts.length === 2 && !parts[1]!.startsWith(':'))
          .map((parts) => parts[1]!),
      ),
    ]);
  app.get(`${prefix}:type`, async (req) => {
    const city = cityParam(req);
    const type = (req.params as { type?: string }).type ?? '';
    const near = nearest(type, known());
    // Only a cleaned form of what was asked is quoted back (and the city as its canonical slug).
    const shown = quotedInput(type);
    const path = near ? `${base}${findCity(city)?.slug ?? (cleanedInput(city) || '{city}')}/${near}` : null;
    // Never the URL that was asked for: a suggestion names another path.
    if (near && path && path !== req.url.split('?')[0]) {
      throw new ProblemError('route_not_found', `unknown data type${shown}`, `Did you mean ${path}? GET /api/v1 lists every data type.`, {
        suggestion: near,
        suggested_path: path,
      });
    }
    throw new ProblemError('route_not_found', `unknown data type${shown}`, 'GET /api/v1 lists every data type with an example request.');
  });
}
