export type UpstreamFailure = 'timeout' | 'network' | 'status' | 'too_large' | 'redirect' | 'parse' | 'rate_limited';

/** Any failure to get a usable answer from an upstream. Counts against the source's breaker. */
export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
