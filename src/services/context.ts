import type { Pipeline } from '../pipeline/run.ts';
import type { Runtime } from '../pipeline/runtime.ts';

/** What a service needs: the runtime and the pipeline of one app instance (REST and MCP share them). */
export interface ServiceContext {
  rt: Runtime;
  pipeline: Pipeline;
}

/** The envelope a service answers with; routes serialise it, MCP tools hand it over as structured content. */
export interface Envelope {
  data: unknown;
  meta: Record<string, unknown>;
  attribution?: unknown;
}
