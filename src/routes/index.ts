import type { FastifyInstance } from 'fastify';
import type { RouteContext } from './context.ts';
import { registerHealth } from './health.ts';
import { registerCities } from './cities.ts';
import { registerSources } from './sources.ts';
import { registerDataTypes } from './data-types.ts';
import { registerOpenApi } from './openapi.ts';
import { registerMetrics } from './metrics.ts';
import { registerOverview } from './overview.ts';
import { registerCompare } from './compare.ts';
import { registerProblems } from './problems.ts';
import { registerCoverage } from './coverage.ts';
import { registerLanding } from './landing.ts';
import { registerUnknownType } from './unknown-type.ts';
import { registerHistory } from './history-routes.ts';
import { registerFavicon } from './favicon.ts';
import { registerExplore } from './explore.ts';

export async function registerRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerLanding(app, ctx);
  registerFavicon(app);
  registerHealth(app, ctx);
  registerCities(app, ctx);
  registerSources(app, ctx);
  registerOverview(app, ctx);
  registerCompare(app, ctx);
  registerDataTypes(app, ctx);
  registerHistory(app, ctx);
  registerProblems(app);
  registerMetrics(app, ctx);
  registerOpenApi(app, ctx);
  registerCoverage(app, ctx);
  registerExplore(app, ctx);
  registerUnknownType(app, ctx);
}
