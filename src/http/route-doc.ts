import type { ParamDecl } from '../core/params.ts';

/**
 * What a route tells OpenAPI about itself, carried in Fastify's route `config.doc`. The
 * OpenAPI document is built from the routes actually registered, never from a second list.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  params?: readonly ParamDecl[];
  /** Query parameters shared by paginated routes. */
  paginated?: 'meta' | 'list';
  conditional?: boolean;
  deprecated?: boolean;
  successor?: string;
  responses?: Record<string, string>;
  contentType?: string;
  hidden?: boolean;
  operationId?: string;
  /**
   * The typed `data` of a data-type route: JSON Schema, published under components.schemas[name].
   * A function, called when the OpenAPI document is built: 95 JSON Schemas (and the zod schemas
   * behind them) are not kept in memory by a server nobody asked for its docs.
   */
  data?: { name: string; schema: () => Record<string, unknown> };
  /** Key of the route's example answer in openapi-examples.json (generated from fixtures). */
  exampleKey?: string;
  /** Path and query values of a request that works (the data type's example). */
  exampleValues?: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
  }
}
