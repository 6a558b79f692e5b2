import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderText } from './text.ts';
import { toolHint } from './hints.ts';
import { problemBody, ProblemError, type ProblemBody } from '../core/problem.ts';
import type { Envelope } from '../services/context.ts';

/**
 * A tool result: the envelope as structured content (validated by clients against the tool's
 * outputSchema) and a compact text rendering of it for the model: a summary line, the data as
 * `field: value` lines, the credit. Not the envelope's JSON a second time.
 */
export function envelopeResult(label: string, env: Envelope): CallToolResult {
  return {
    content: [{ type: 'text', text: renderText(label, env) }],
    structuredContent: env as unknown as Record<string, unknown>,
  };
}

/** A failure the model can correct: code and hint in the text and in the structured content. */
export function problemResult(err: unknown, onUnexpected: (err: unknown) => void): CallToolResult {
  let body: ProblemBody;
  if (err instanceof ProblemError) body = { ...err.body(), hint: toolHint(err.hint) };
  else {
    onUnexpected(err);
    body = problemBody(
      'internal_error',
      'an unexpected error occurred; it has been logged',
      'Retry later; if it persists, report it with the time of the call.',
    );
  }
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${body.status} ${body.code}: ${body.detail} Hint: ${body.hint}` }],
    structuredContent: body as unknown as Record<string, unknown>,
  };
}
