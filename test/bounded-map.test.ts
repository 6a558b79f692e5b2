import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedMap } from '../src/core/bounded-map.ts';

test('a bounded map keeps within its byte budget, dropping the oldest entries first', () => {
  const m = new BoundedMap<string, string>(100, (k, v) => k.length + v.length);
  for (let i = 0; i < 50; i++) m.set(`k${i}`, 'x'.repeat(10 + (i % 7)));
  assert.ok(m.bytes <= 100, `${m.bytes} bytes kept`);
  assert.equal(m.has('k0'), false);
  assert.equal(m.get('k49'), 'x'.repeat(10 + (49 % 7)));
  // Setting a key again charges it once, as the newest.
  const before = m.bytes;
  m.set('k49', 'y');
  assert.equal(m.bytes, before - (10 + (49 % 7)) + 1);
  assert.equal(m.delete('k49'), true);
  assert.equal(m.has('k49'), false);
});

test('an entry larger than the whole budget is refused and evicts nothing', () => {
  const m = new BoundedMap<string, Buffer>(64, (_k, v) => v.length);
  assert.equal(m.set('a', Buffer.alloc(32)), true);
  assert.equal(m.set('huge', Buffer.alloc(65)), false);
  assert.equal(m.has('huge'), false);
  assert.equal(m.has('a'), true);
  assert.equal(m.size, 1);
});
