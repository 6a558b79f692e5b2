import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderStoresTable, renderUpstreamTable, updatedOperationsDoc } from '../scripts/capacity-docs.ts';
import { CATALOG } from '../src/catalog/index.ts';

/** docs/operations.md's capacity tables are what the generator computes from the catalog now (`npm run capacity-docs`). */
const DOC = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');

function section(name: string): string {
  const a = DOC.indexOf(`<!-- ${name}:start -->\n`),
    b = DOC.indexOf(`\n<!-- ${name}:end -->`);
  assert.ok(a >= 0 && b > a, `${name} markers`);
  return DOC.slice(a + `<!-- ${name}:start -->\n`.length, b);
}

test('the capacity tables in docs/operations.md match the generator (run npm run capacity-docs)', () => {
  assert.equal(section('capacity'), renderUpstreamTable());
  assert.equal(section('capacity-stores'), renderStoresTable());
  assert.equal(updatedOperationsDoc(DOC), DOC);
});

test('every source that declares a published limit is in the upstream table with that limit', () => {
  const table = section('capacity');
  const declared = CATALOG.sources.filter((s) => s.publishedLimit);
  assert.ok(declared.length >= 5);
  for (const s of declared) {
    const row = table.split('\n').find((l) => l.includes(`\`${s.id}\``));
    assert.ok(row, s.id);
    assert.ok(row.includes(s.publishedLimit!.text.replace(/\|/g, '\\|')), `${s.id}: its limit is cited`);
  }
});
