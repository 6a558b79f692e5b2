import assert from 'node:assert/strict';

/** The entry at `i` of `list`, failing the test when there is none. */
export function nth<T>(list: readonly T[], i: number): T {
  const v = list[i];
  assert.ok(v !== undefined, `expected an entry at index ${i} (the list has ${list.length})`);
  return v;
}

/** `v` itself, failing the test when it is undefined or null. */
export function must<T>(v: T | undefined | null, what = 'a value'): T {
  assert.ok(v !== undefined && v !== null, `expected ${what}`);
  return v;
}
