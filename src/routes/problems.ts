import type { FastifyInstance } from 'fastify';
import { PROBLEM_CODES } from '../core/problem.ts';
import { ProblemsAnswer } from '../services/schemas.ts';
import { JSON_TYPE } from './context.ts';

/** The documented problem codes; problem `type` URIs point here. */
export function registerProblems(app: FastifyInstance) {
  app.get(
    '/api/v1/problems',
    {
      config: {
        doc: {
          operationId: 'problem_codes',
          summary: 'The problem codes used in error responses (RFC 9457)',
          description:
            'Every problem code an error answer (application/problem+json) can carry, with its HTTP status and title; problem `type` URIs point here.',
          tags: ['Operational'],
          answer: { name: 'ProblemsAnswer', schema: ProblemsAnswer },
        },
      },
    },
    async (_req, reply) => {
      const data = Object.entries(PROBLEM_CODES).map(([code, d]) => ({ code, status: d.status, title: d.title, type: `/api/v1/problems#${code}` }));
      return reply
        .headers({ 'content-type': JSON_TYPE, 'cache-control': 'public, max-age=86400' })
        .send(JSON.stringify({ data, meta: { source_status: 'ok', total: data.length } }));
    },
  );
}
