import assert from 'node:assert/strict';

/**
 * Typed reads of a parsed JSON answer (`TestResponse.json` is `unknown`). A path is dotted:
 * `'data.0.name'` reads `json.data[0].name`. `at` yields undefined where the path ends early (as
 * `?.` would); the others fail the test when the value there has the wrong type.
 */
export function at(v: unknown, path = ''): unknown {
  let cur = v;
  for (const key of path === '' ? [] : path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export function str(v: unknown, path = ''): string {
  const x = at(v, path);
  assert.equal(typeof x, 'string', `${path || 'value'} is a string`);
  return x as string;
}

export function num(v: unknown, path = ''): number {
  const x = at(v, path);
  assert.equal(typeof x, 'number', `${path || 'value'} is a number`);
  return x as number;
}

/** The object at `path`, its fields unknown. */
export function obj(v: unknown, path = ''): Record<string, unknown> {
  const x = at(v, path);
  assert.ok(x !== null && typeof x === 'object' && !Array.isArray(x), `${path || 'value'} is an object`);
  return x as Record<string, unknown>;
}

/**
 * The array at `path`. `T` is the shape the test reads its entries as (a test's declaration of
 * the answer's schema, not checked here beyond the array itself; the assertions on it check it).
 */
export function list<T = unknown>(v: unknown, path = ''): T[] {
  const x = at(v, path);
  assert.ok(Array.isArray(x), `${path || 'value'} is an array`);
  return x as T[];
}
