import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coveredCities, dataType, tierLabel, type Adapter, type TypeSource } from '../src/core/data-type.ts';
import { forCity, formsOf, jobsOf, sourcesOf, standInForm } from '../src/core/forms.ts';
import type { SourceDecl } from '../src/core/source.ts';
import { record, text } from '../src/core/schema.ts';
import { CATALOG } from '../src/catalog/index.ts';

/** A source declaration of the shape the catalog's have (no upstream is called here). */
function source(id: string, tier: SourceDecl['tier'] = 'A'): SourceDecl {
  return {
    id,
    name: id,
    env: id.toUpperCase(),
    baseUrl: `https://${id}.example`,
    license: 'CC-BY-4.0',
    licenseUrl: 'https://example.org',
    tier,
    attribution: id,
  };
}

const A = source('a');
const B = source('b', 'C');
const C = source('c');
const P = source('p', 'B');
const adapter: Adapter<{ name: string }> = async () => ({ data: { name: 'x' } });
const Rec = () => record({ name: text('Name') });

const typeWith = (sources: readonly TypeSource<Adapter<{ name: string }>>[]) =>
  dataType({
    type: 't',
    label: 't',
    label_en: 't',
    group: 'city',
    summary: 't',
    record: Rec,
    cache: { freshSeconds: 60, staleSeconds: 60 },
    coverage: { cities: ['koeln'], note: 'test' },
    example: { city: 'koeln' },
    sources,
  });

test('sources: a type needs exactly one primary without `for`', () => {
  assert.throws(() => typeWith([{ role: 'primary', for: ['koeln'], source: A, adapter }]), /exactly one primary/);
  assert.throws(
    () =>
      typeWith([
        { role: 'primary', source: A, adapter },
        { role: 'primary', source: B, adapter },
      ]),
    /exactly one primary/,
  );
});

test('sources: a stand-in or failover stands in for a primary with its cities, at most one per primary', () => {
  assert.throws(
    () =>
      typeWith([
        { role: 'primary', source: A, adapter },
        { role: 'stand-in', for: ['bonn'], source: B, adapter, note: 'n' },
      ]),
    /stands in for no primary/,
  );
  assert.throws(
    () =>
      typeWith([
        { role: 'primary', source: A, adapter },
        { role: 'stand-in', source: B, adapter, note: 'n' },
        { role: 'failover', source: C, adapter, note: 'n' },
      ]),
    /two stand-ins/,
  );
});

test('sources: the primary naming a city answers it, the default one every other; stand-ins and parts follow their cities', () => {
  const dt = typeWith([
    { role: 'primary', source: A, adapter },
    { role: 'stand-in', source: C, adapter, note: 'keyless' },
    { role: 'primary', for: ['bonn'], source: B, adapter },
    { role: 'part', source: P },
    { role: 'part', for: ['bonn'], source: A },
  ]);
  const koeln = forCity(dt, 'koeln');
  const bonn = forCity(dt, 'bonn');
  assert.equal(koeln.source, A);
  assert.equal(bonn.source, B);
  assert.equal(forCity(dt, 'koeln'), koeln, 'one form per type and source');
  assert.deepEqual(koeln.parts, [A, P], 'its own source and the parts listed for every city');
  assert.deepEqual(bonn.parts, [B, P, A], "and the parts listed for the primary's cities");
  assert.equal(koeln.standIn?.source, C);
  assert.equal(bonn.standIn, undefined, 'a stand-in without `for` stands in for the default primary only');
  const standIn = standInForm(koeln)!;
  assert.equal(standIn.source, C);
  assert.equal(standIn.standingInFor, A);
  assert.deepEqual(
    formsOf(dt).map((f) => f.source.id),
    ['a', 'b'],
    'the forms of the primaries',
  );
  assert.deepEqual(coveredCities(dt), ['koeln', 'bonn'], "the primaries' cities count as covered, not the parts'");
  assert.deepEqual(
    sourcesOf(dt).map((s) => s.id),
    ['a', 'c', 'b', 'p'],
  );
  assert.equal(tierLabel(dt), 'Tier A/C', 'the tiers of the sources that may answer, parts left out');
});

test('sources: every catalog type declares its list by the rules (one default primary, stored sources name their jobs)', () => {
  for (const dt of CATALOG.all) {
    assert.equal(dt.sources.filter((s) => s.role === 'primary' && !s.for).length, 1, dt.type);
    for (const s of dt.sources) if (s.role !== 'part' && (s.cache ?? dt.cache) === 'stored') assert.ok(s.jobs?.length, `${dt.type}: ${s.source.id}`);
  }
  assert.ok(jobsOf(CATALOG.byType.get('sustainability')!).length > 0);
});
