import type { FastifyInstance } from 'fastify';
import { resolveCity } from '../cities/resolve.ts';
import { ProblemError } from '../core/problem.ts';
import { HTML_TYPE } from '../http/html.ts';
import { webBundle } from '../http/web-assets.ts';
import { EXPLORER_ENTRY, explorerCsp, explorerHtml, explorerPickerHtml } from '../services/explorer-html.ts';
import type { RouteContext } from './context.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** `/explore` (city picker), `/explore/{city}` (tolerant slug, like every path) and the explorer's bundled files. */
export function registerExplore(app: FastifyInstance, ctx: RouteContext) {
  const csp = explorerCsp(ctx.rt.config.mapTilesUrl);
  const bundle = () => webBundle(EXPLORER_ENTRY);

  app.get('/explore', async (req, reply) => {
    const q = (req.query as { city?: unknown }).city;
    // The picker's form: any spelling the resolver takes goes to the canonical page (unknown: the did-you-mean 404).
    if (typeof q === 'string' && q.trim() !== '') return reply.redirect(`/explore/${resolveCity(q.trim()).slug}`, 303);
    return reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'public, max-age=60', 'content-security-policy': csp }).send(explorerPickerHtml(ctx));
  });

  app.get('/explore/:city', async (req, reply) => {
    const assets = (await bundle()).entries.get('explorer')!;
    const { html } = await explorerHtml(ctx, (req.params as { city: string }).city, assets);
    return reply.headers({ 'content-type': HTML_TYPE, 'cache-control': 'no-cache', 'content-security-policy': csp }).send(html);
  });

  app.get('/explore/assets/:name', async (req, reply) => {
    const file = (await bundle()).files.get((req.params as { name: string }).name);
    if (!file)
      throw new ProblemError('route_not_found', 'No such explorer asset.', 'Asset names change with every build; load /explore/{city} for the current ones.');
    return reply.headers({ 'content-type': file.type, 'cache-control': IMMUTABLE }).send(file.body);
  });
}
