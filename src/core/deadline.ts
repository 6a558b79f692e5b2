/**
 * A signal that aborts after `ms` with the same TimeoutError as AbortSignal.timeout, and a
 * `release` that ends its timer when the work is done. AbortSignal.timeout keeps its timer (and
 * signal) alive until it fires: at 10k stored-type requests per second with a 10 s budget that
 * is 100k live timers, promoted garbage that made every old-generation collection slower.
 */
export interface Deadline {
  signal: AbortSignal;
  release: () => void;
}

export function deadline(ms: number): Deadline {
  const c = new AbortController();
  const timer = setTimeout(() => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  return { signal: c.signal, release: () => clearTimeout(timer) };
}

/** Runs `work` under a deadline of `ms` and ends the timer however it finishes. */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const d = deadline(ms);
  try {
    return await work(d.signal);
  } finally {
    d.release();
  }
}
