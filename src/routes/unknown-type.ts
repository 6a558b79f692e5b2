import type { FastifyInstance } from 'fastify';
import { ProblemError } from '../core/problem.ts';
import { nearest } from '../core/suggest.ts';
import type { RouteContext } from './context.ts';

const PREFIX = '/api/v1/cities/:slug/';

/**
 * `/api/v1/cities/{slug}/<typo>`: every real per-city route is a static segment and wins over
 * this parametric one, so only unknown suffixes land here and get a did-you-mean 404.
 */
export function registerUnknownType(app: FastifyInstance, ctx: RouteContext) {
  let suffixes: string[] | null = null;
  const known = () =>
    (suffixes ??= [
      ...new Set(
        ctx.routes
          .map((r) => r.url)
          .filter((u) => u.startsWith(PREFIX) && !u.slice(PREFIX.length).includes('/') && !u.slice(PREFIX.length).startsWith(':'))
          .map((u) => u.slice(PREFIX.length)),
      ),
    ]);
  app.get(`${PREFIX}:type`, async (req) => {
    const { slug, type } = req.params as { slug: string; type: string };
    const near = nearest(type, known());
    const shown = type.slice(0, 60);
    if (near) {
      const path = `/api/v1/cities/${encodeURIComponent(slug)}/${near}`;
      throw new ProblemError('route_not_found', `unknown data type "${shown}"`, `Did you mean ${path}? GET /api/v1 lists every data type.`, {
        suggestion: near,
        suggested_path: path,
      });
    }
    throw new ProblemError('route_not_found', `unknown data type "${shown}"`, 'GET /api/v1 lists every data type with an example request.');
  });
}
