import { interceptors, type Dispatcher } from 'undici';
import type { Duplex } from 'node:stream';
import { UpstreamError } from '../core/upstream-error.ts';

type ResponseHeaders = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];

/**
 * The interceptors every upstream call goes through (client.ts), outermost last:
 * sameHostOnly → undici's redirect → undici's decompress → byteCap.
 * sameHostOnly sits nearest the connection, so it sees each hop's answer before undici's
 * redirect interceptor follows it; byteCap sits outside decoding, so it counts decoded bytes.
 */

/** Redirects followed per call; one more is a failure of kind `redirect`. */
export const MAX_REDIRECTS = 3;

/**
 * The bytes all upstream bodies being read hold together. A call that would push the total over
 * the cap fails at once (an `overloaded` failure of ours, not the upstream's), so many large
 * answers at the same moment cannot exhaust the process.
 */
export class ByteBudget {
  used = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  /** Whether calls of this cap are counted: a scheduled job's download beyond the whole budget (the weekly GTFS zip) is not. */
  covers(maxBytes: number): boolean {
    return this.max > 0 && maxBytes <= this.max;
  }
  take(n: number): boolean {
    if (this.used + n > this.max) return false;
    this.used += n;
    return true;
  }
  give(n: number) {
    this.used = Math.max(0, this.used - n);
  }
}

/** Hands every callback on to the next handler; the interceptors below override what they check. */
class Forward implements Dispatcher.DispatchHandler {
  protected readonly next: Dispatcher.DispatchHandler;
  constructor(next: Dispatcher.DispatchHandler) {
    this.next = next;
  }
  onRequestStart(c: Dispatcher.DispatchController, context: unknown) {
    this.next.onRequestStart?.(c, context);
  }
  onRequestUpgrade(c: Dispatcher.DispatchController, status: number, headers: ResponseHeaders, socket: Duplex) {
    this.next.onRequestUpgrade?.(c, status, headers, socket);
  }
  onResponseStart(c: Dispatcher.DispatchController, status: number, headers: ResponseHeaders, message?: string) {
    this.next.onResponseStart?.(c, status, headers, message);
  }
  onResponseData(c: Dispatcher.DispatchController, chunk: Buffer) {
    this.next.onResponseData?.(c, chunk);
  }
  onResponseEnd(c: Dispatcher.DispatchController, trailers: ResponseHeaders) {
    this.next.onResponseEnd?.(c, trailers);
  }
  onResponseError(c: Dispatcher.DispatchController, err: Error) {
    this.next.onResponseError?.(c, err);
  }
}

/**
 * A redirect answer whose Location names another host fails the call: a source's configured host
 * is the only one it talks to. So does one back to a URL already asked (a loop). undici's redirect
 * interceptor dispatches every hop with the same handler, which keys the URLs asked so far.
 */
function sameHostOnly(): Dispatcher.DispatcherComposeInterceptor {
  const asked = new WeakMap<Dispatcher.DispatchHandler, Set<string>>();
  return (dispatch) => (opts, handler) => {
    const from = new URL(opts.path, opts.origin);
    const seen = asked.get(handler) ?? new Set<string>();
    asked.set(handler, seen.add(from.href));
    return dispatch(
      opts,
      new (class extends Forward {
        override onResponseStart(c: Dispatcher.DispatchController, status: number, headers: ResponseHeaders, message?: string) {
          const location = headers.location;
          if (status >= 300 && status < 400 && typeof location === 'string') {
            const to = new URL(location, from);
            if (to.host !== from.host) return c.abort(new UpstreamError('redirect', 'redirect to another host refused', status));
            if (seen.has(to.href)) return c.abort(new UpstreamError('redirect', 'redirect loop', status));
          }
          super.onResponseStart(c, status, headers, message);
        }
      })(handler),
    );
  };
}

/**
 * Holds one call's body to `maxBytes` (a declared length over it is refused before a byte is
 * read) and, when given, to the shared in-flight budget: a declared length is reserved at once,
 * anything beyond it as it arrives, and all of it is given back when the answer ends or fails.
 */
export function byteCap(maxBytes: number, budget: ByteBudget | null): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    let size = 0;
    let held = 0;
    const hold = (c: Dispatcher.DispatchController, n: number): boolean => {
      if (!budget || n <= 0) return true;
      if (!budget.take(n)) {
        c.abort(new UpstreamError('overloaded', 'too many upstream bytes in flight; call refused by this service'));
        return false;
      }
      held += n;
      return true;
    };
    const release = () => {
      budget?.give(held);
      held = 0;
    };
    return dispatch(
      opts,
      new (class extends Forward {
        override onResponseStart(c: Dispatcher.DispatchController, status: number, headers: ResponseHeaders, message?: string) {
          const declared = Number(headers['content-length'] ?? 0);
          if (declared > maxBytes) return c.abort(new UpstreamError('too_large', `response of ${declared} bytes exceeds ${maxBytes}`, status));
          if (hold(c, declared)) super.onResponseStart(c, status, headers, message);
        }
        override onResponseData(c: Dispatcher.DispatchController, chunk: Buffer) {
          size += chunk.length;
          if (size > maxBytes) return c.abort(new UpstreamError('too_large', `response exceeds ${maxBytes} bytes`));
          if (hold(c, size - held)) super.onResponseData(c, chunk);
        }
        override onResponseEnd(c: Dispatcher.DispatchController, trailers: ResponseHeaders) {
          release();
          super.onResponseEnd(c, trailers);
        }
        override onResponseError(c: Dispatcher.DispatchController, err: Error) {
          release();
          super.onResponseError(c, err);
        }
      })(handler),
    );
  };
}

/**
 * undici 7.30's decompress interceptor announces itself as experimental on stderr, once per
 * process. undici is pinned to that version and decoding is tested against it
 * (test/upstream-client.test.ts), so the notice is left out of the service's output; any other
 * warning is passed on.
 */
function decompress(): Dispatcher.DispatcherComposeInterceptor {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).startsWith('DecompressInterceptor is experimental')) (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // Error answers are decoded too: an adapter may read a 404's body (okStatuses).
    return interceptors.decompress({ skipErrorResponses: false });
  } finally {
    process.emitWarning = emit;
  }
}

/** A pool's dispatcher with same-host redirects (at most MAX_REDIRECTS) and content decoding. */
export function withRedirectsAndDecoding(pool: Dispatcher): Dispatcher {
  return pool.compose(sameHostOnly(), interceptors.redirect({ maxRedirections: MAX_REDIRECTS }), decompress());
}
