/**
 * RFC 9457 problem details. Every 4xx/5xx body is one of these; the `code` values below are the
 * stable, documented machine codes (README "Errors").
 */
export const PROBLEM_CODES = {
  invalid_request: { status: 400, title: 'Invalid request' },
  request_timeout: { status: 408, title: 'Request not received in time' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  uri_too_long: { status: 414, title: 'Request URI too long' },
  unsupported_media_type: { status: 415, title: 'Unsupported request body type' },
  rate_limited: { status: 429, title: 'Too many requests from this client' },
  header_fields_too_large: { status: 431, title: 'Request headers too large' },
  city_not_found: { status: 404, title: 'Unknown city' },
  route_not_found: { status: 404, title: 'Unknown route' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Format not offered for this route' },
  invalid_parameter: { status: 422, title: 'Invalid parameter value' },
  upstream_unavailable: { status: 503, title: 'Upstream unavailable and nothing cached' },
  history_store_unavailable: { status: 503, title: 'History store unreachable' },
  not_ready: { status: 503, title: 'Service not ready' },
  internal_error: { status: 500, title: 'Internal error' },
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  hint: string;
  instance?: string;
  [extra: string]: unknown;
}

export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly status: number;
  readonly code: ProblemCode;
  readonly detail: string;
  readonly hint: string;
  readonly extra: Record<string, unknown>;
  constructor(code: ProblemCode, detail: string, hint: string, extra: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(detail, options);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.extra = extra;
    this.status = PROBLEM_CODES[code].status;
  }

  body(instance?: string): ProblemBody {
    return problemBody(this.code, this.detail, this.hint, instance, this.extra);
  }
}

export function problemBody(code: ProblemCode, detail: string, hint: string, instance?: string, extra: Record<string, unknown> = {}): ProblemBody {
  const def = PROBLEM_CODES[code];
  return {
    type: `/api/v1/problems#${code}`,
    title: def.title,
    status: def.status,
    detail,
    code,
    hint,
    ...(instance ? { instance } : {}),
    ...extra,
  };
}

/**
 * The most of a client's input an answer may repeat: lower-case letters, digits and hyphens, at
 * most 40 characters (accents folded: "Köln" -> "koln"); '' when nothing is left. A problem that
 * quotes the input verbatim would carry markup, control characters or a pasted secret back to
 * whoever renders it.
 */
export function cleanedInput(input: unknown): string {
  return String(input ?? '')
    .slice(0, 200)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '')
    .slice(0, 40);
}

/** ` "cleaned"` to follow a noun in a detail (`unknown data type "wether"`), or '' when nothing is left to quote. */
export function quotedInput(input: unknown): string {
  const cleaned = cleanedInput(input);
  return cleaned ? ` "${cleaned}"` : '';
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
