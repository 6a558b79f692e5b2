import type { App } from '../app.ts';

/** What a service needs: the runtime and the pipeline of one app instance (REST and MCP share them). */
export type ServiceContext = Pick<App, 'rt' | 'pipeline'>;

/** The envelope a service answers with; routes serialise it, MCP tools hand it over as structured content. */
export interface Envelope {
  data: unknown;
  meta: Record<string, unknown>;
  attribution?: unknown;
}
