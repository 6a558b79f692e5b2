/** `v` itself; a bench step that finds nothing where it must stops with a named error instead of reporting NaN. */
export function need<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new Error(`bench: missing ${what}`);
  return v;
}
