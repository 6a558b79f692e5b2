import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { examplePath, primariesOf } from '../src/core/data-type.ts';
import { AUTOBAHN } from '../src/sources/autobahn/source.ts';
import { get } from './helpers/app.ts';

/**
 * The naming rule holds inside `raw` too: the spec's only exception is the motorway feed's
 * camelCase fields. Every data type's demo answer (its example city and one city of each
 * per-city variant, so every source of a type is seen) is walked for raw member names.
 */
let demo: Demo;
before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
});
after(async () => {
  await demo.close();
});

const SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;

interface Finding {
  path: string;
  where: string;
}

/** Raw members with a non-snake_case name, and blank lines in a raw description, below `value`. */
function walk(value: unknown, inRaw: boolean, where: string, keys: Finding[], blanks: Finding[], path: string): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, inRaw, `${where}[${i}]`, keys, blanks, path));
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const here = `${where}.${k}`;
    if (inRaw && !SNAKE.test(k)) keys.push({ path, where: here });
    if (inRaw && k === 'description' && Array.isArray(v) && v.some((line) => typeof line === 'string' && line.trim() === ''))
      blanks.push({ path, where: here });
    walk(v, inRaw || k === 'raw', here, keys, blanks, path);
  }
}

function pathsOf(d: Demo): string[] {
  const paths = new Set<string>();
  for (const dt of d.built.rt.catalog.all) {
    const example = examplePath(dt);
    paths.add(example);
    const city = dt.example.city;
    if (!city) continue;
    for (const r of primariesOf(dt)) {
      const other = r.for?.[0];
      if (other) paths.add(example.replace(`/${city}/`, `/${other}/`).replace(new RegExp(`/${city}$`), `/${other}`));
    }
  }
  return [...paths];
}

test('raw members are snake_case in every demo answer except the motorway feed; its descriptions carry no blank lines', async () => {
  const keys: Finding[] = [];
  const blanks: Finding[] = [];
  let walked = 0;
  for (const path of pathsOf(demo)) {
    const r = await get(demo.url + path);
    if (r.status !== 200) continue;
    const body = r.json as { data?: unknown; meta?: { source?: string } };
    walked++;
    const found: Finding[] = [];
    walk(body.data, false, 'data', found, blanks, path);
    // The exception is the motorway feed's own fields, nothing else answered beside them.
    if (body.meta?.source !== AUTOBAHN.id) keys.push(...found);
  }
  assert.ok(walked > 100, `walked ${walked} answers`);
  assert.deepEqual(keys.slice(0, 20), [], `${keys.length} raw members are not snake_case`);
  assert.deepEqual(blanks.slice(0, 20), [], 'blank lines in raw.description');
});
