export type UpstreamFailure =
  | 'timeout'
  | 'network'
  | 'status'
  | 'too_large'
  | 'redirect'
  | 'parse'
  | 'rate_limited'
  /** Our own limits, not the upstream's fault: */
  | 'own_rate_limit'
  | 'overloaded';

/**
 * Any failure to get a usable answer from an upstream. Messages never name hosts or ports, and neither may a
 * `cause`: pino's error serializer prints a cause's message, so a network error (which names the address) is
 * described in words, never attached.
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly kind: UpstreamFailure;
  readonly status?: number;
  readonly retryAfterMs?: number;
  constructor(kind: UpstreamFailure, message: string, status?: number, retryAfterMs?: number, options?: ErrorOptions) {
    super(message, options);
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Upstream statuses that say the service (not the request we built from user input) is failing. */
const FAULT_STATUSES = new Set([401, 403, 408, 429]);

/**
 * Whether a failure says the upstream is unwell, so it may open the source's breaker. Our own
 * refusals (rate-limit queue full, memory budget, request budget) and 4xx answers to a request
 * built from user input (an unknown stop, a 404 id) never do: one client must not be able to
 * open a breaker for everyone.
 */
export function isUpstreamFault(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) {
    // Adapter errors on a usable answer (a parser meeting a changed format) are upstream faults;
    // our own refusals (the request budget) are not, nor a refusal of the user's input (a problem status).
    const e = err as { name?: string; status?: unknown; ownRefusal?: unknown } | null;
    if (e?.ownRefusal === true || (typeof e?.status === 'number' && e.status < 500)) return false;
    return e?.name !== 'AbortError' && e?.name !== 'TimeoutError';
  }
  switch (err.kind) {
    case 'own_rate_limit':
    case 'overloaded':
      return false;
    case 'status':
      return err.status === undefined || err.status >= 500 || FAULT_STATUSES.has(err.status);
    default:
      return true;
  }
}

/** errno codes as generic words: a /sources reader learns what failed, not where. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  UND_ERR_SOCKET: 'connection closed early',
  UND_ERR_CLOSED: 'connection closed early',
  ENOTFOUND: 'name not resolved',
  EAI_AGAIN: 'name not resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'TLS certificate problem',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate problem',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate problem',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate problem',
};

export function networkWords(code: string | undefined): string {
  return (code && NETWORK_WORDS[code]) ?? 'connection failed';
}
