/** Run `fn` over `items` with at most `n` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i); // i < items.length
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** Resolve with `fallback()` when `p` takes longer than `ms` (`p` runs on; its result is then dropped). */
export function orFallbackAfter<T>(p: Promise<T>, ms: number, fallback: () => T): Promise<T> {
  let timer: NodeJS.Timeout;
  const t = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), ms);
  });
  return Promise.race([p.finally(() => clearTimeout(timer)), t]);
}
