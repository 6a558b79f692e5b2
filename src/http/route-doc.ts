import type { ParamDecl } from '../core/params.ts';
import type { z } from '../core/schema.ts';
import type { Format } from '../core/formats.ts';

/**
 * What a route tells OpenAPI about itself, carried in Fastify's route `config.doc`. The
 * OpenAPI document is built from the routes actually registered, never from a second list.
 */
export interface RouteDoc {
  summary: string;
  /** What the operation answers and when; every operation has one (client generators show it). */
  description: string;
  tags: string[];
  /** Unique across the document: generated clients name their methods after it. */
  operationId: string;
  params?: readonly ParamDecl[];
  /** Query parameters shared by paginated routes. */
  paginated?: 'meta' | 'list';
  conditional?: boolean;
  deprecated?: boolean;
  successor?: string;
  responses?: Record<string, string>;
  contentType?: string;
  /** The 200 answer is also a text/event-stream (Server-Sent Events, routes/streams.ts). */
  stream?: boolean;
  /**
   * The formats the route answers in (JSON first; core/formats.ts), called when the document is
   * built: a data type's are derived from its record schema.
   */
  formats?: () => readonly Format[];
  hidden?: boolean;
  /**
   * The typed `data` of a data-type route: JSON Schema, published under components.schemas[name].
   * A function, called when the OpenAPI document is built: 95 JSON Schemas (and the zod schemas
   * behind them) are not kept in memory by a server nobody asked for its docs.
   */
  data?: { name: string; schema: () => Record<string, unknown> };
  /**
   * The GeoJSON answer of a route offering it: a FeatureCollection typed for its rows
   * (http/openapi-formats.ts), published under components.schemas[name]; routes whose answers
   * are alike share the first one's.
   */
  features?: { name: string; schema: () => Record<string, unknown> };
  /**
   * The whole 200 body of a route that answers in its own shape (the service routes, the raw
   * OpenAPI document): published under components.schemas[name]; tests check answers against it.
   */
  answer?: { name: string; schema: () => z.ZodType };
  /** Canonical values of path parameters with a fixed set (e.g. the cities a live path covers). */
  pathValues?: Record<string, readonly string[]>;
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
