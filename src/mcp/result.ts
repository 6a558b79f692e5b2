import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { problemBody, ProblemError, type ProblemBody } from '../core/problem.ts';
import type { Envelope } from '../services/context.ts';

/**
 * The structured content of every tool: the REST envelope, or on failure the problem document.
 * Members are optional because both shapes pass through the same declared schema (the SDK client
 * validates error results too).
 */
export const OUTPUT_SCHEMA = z.looseObject({
  data: z.unknown().meta({ description: 'The record, a list, or null (see meta.source_status)' }).optional(),
  meta: z
    .looseObject({ source_status: z.string().optional() })
    .meta({ description: 'source_status, cache_status, pagination, as_of, refresh_seconds, covered_cities, …' })
    .optional(),
  attribution: z.unknown().meta({ description: 'Source attribution and licence' }).optional(),
  code: z.string().meta({ description: 'Problem code, on errors only' }).optional(),
  hint: z.string().meta({ description: 'How to correct the call, on errors only' }).optional(),
});

/**
 * A tool result: a one-line summary, the envelope as JSON text for clients that ignore structured
 * content (the MCP spec asks for both), and the envelope as structured content.
 */
export function envelopeResult(label: string, env: Envelope): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary(label, env) },
      { type: 'text', text: JSON.stringify(env) },
    ],
    structuredContent: env as unknown as Record<string, unknown>,
  };
}

/** A failure the model can correct: code and hint in the text and in the structured content. */
export function problemResult(err: unknown, onUnexpected: (err: unknown) => void): CallToolResult {
  let body: ProblemBody;
  if (err instanceof ProblemError) body = err.body();
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

function summary(label: string, env: Envelope): string {
  const m = env.meta;
  const parts = [`${label}${typeof m.city === 'string' ? ` for ${m.city}` : ''}: source_status ${String(m.source_status ?? 'ok')}`];
  if (m.cache_status) parts.push(`cache ${String(m.cache_status)}`);
  if (m.as_of) parts.push(`as of ${String(m.as_of)}`);
  const p = m.pagination as { applied: boolean; returned: number; total: number; offset: number } | undefined;
  if (p?.applied) {
    parts.push(`${p.returned} of ${p.total} items from offset ${p.offset}${p.returned < p.total ? '; pass limit "all" (or page/offset) for more' : ''}`);
  } else if (Array.isArray(env.data)) {
    parts.push(`${env.data.length} items`);
  }
  if (m.source_status === 'not_covered' && Array.isArray(m.covered_cities)) parts.push(`covered cities: ${m.covered_cities.join(', ')}`);
  if (typeof m.disabled_reason === 'string') parts.push(m.disabled_reason);
  return `${parts.join('; ')}.`;
}
