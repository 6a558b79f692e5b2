import type { Pipeline } from '../pipeline/run.ts';
import type { Runtime } from '../pipeline/runtime.ts';
import type { Recorder } from '../history/index.ts';

/** What a service needs: the runtime and the pipeline of one app instance (REST and MCP share them). */
export interface ServiceContext {
  rt: Runtime;
  pipeline: Pipeline;
  /** The history recorder and its store (absent or null: HISTORY_ENABLED=false). */
  history?: Recorder | null;
}

/** The envelope a service answers with; routes serialise it, MCP tools hand it over as structured content. */
export interface Envelope {
  data: unknown;
  meta: Record<string, unknown>;
  attribution?: unknown;
}
