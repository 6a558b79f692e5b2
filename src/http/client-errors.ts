import type { Socket } from 'node:net';
import { problemBody, PROBLEM_CONTENT_TYPE, type ProblemBody, type ProblemCode } from '../core/problem.ts';

/**
 * The problem document for a request the framework or Node's HTTP parser refused before any
 * route ran. Nothing of the request is echoed: the client sent it, it may be hostile.
 */
type ClientProblem = { code: ProblemCode; detail: string; hint: string };
const BAD_REQUEST: ClientProblem = {
  code: 'invalid_request',
  detail: 'the request could not be understood',
  hint: 'Send a well-formed HTTP/1.1 request with a Host header and a percent-encoded ASCII path; GET /api/v1/openapi.yaml lists the routes.',
};
const BY_STATUS: Record<number, ClientProblem> = {
  400: BAD_REQUEST,
  408: {
    code: 'request_timeout',
    detail: 'the request was not received completely in time',
    hint: 'Send the request line, headers and body without pauses.',
  },
  413: { code: 'payload_too_large', detail: 'the request body is larger than this server accepts', hint: 'Send a body of at most 1 MiB.' },
  414: {
    code: 'uri_too_long',
    detail: 'the request URI or one of its path segments is too long',
    hint: 'City slugs and path parameters are at most 200 characters, the whole URI at most 2048.',
  },
  415: { code: 'unsupported_media_type', detail: 'the request body has an unsupported content type', hint: 'POST /mcp takes application/json.' },
  431: { code: 'header_fields_too_large', detail: 'the request headers are too large', hint: 'Send at most 16 KiB of headers.' },
};

export function clientProblem(status: number): ProblemBody {
  const p = BY_STATUS[status] ?? BAD_REQUEST;
  return problemBody(p.code, p.detail, p.hint);
}

/** Headers every problem answer carries, also when written straight onto a socket. */
export function problemHeaders(body: ProblemBody): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': PROBLEM_CONTENT_TYPE,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  if (body.status === 503) h['retry-after'] = '30';
  return h;
}

/**
 * Node's `clientError`: the parser refused the bytes (bad request line, raw UTF-8, headers over
 * the limit) or the request timed out. No request object exists, so the answer goes to the socket.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify(clientProblem(status));
  if (socket.writable) {
    const head = Object.entries(problemHeaders(clientProblem(status)))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${head}content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };
