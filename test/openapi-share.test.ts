import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { shareFieldGroups } from '../src/http/openapi-share.ts';

/** The OpenAPI document's field groups: smaller, and what each record accepts is unchanged. */

type Schema = Record<string, unknown>;

const text = (description: string) => ({ type: ['string', 'null'], description });
const period = {
  period: text('Period as the table states it'),
  region_key: text('Official key of the region'),
  region_name: text('Name of the region'),
};
const record = (own: Record<string, unknown>): Schema => {
  const properties = { ...period, ...own };
  return { type: 'object', properties, required: Object.keys(properties) };
};

function schemas(): Record<string, Schema> {
  return {
    CareData: record({ homes: { type: 'integer' } }),
    ChildcareData: record({ places: { type: 'integer' } }),
    TourismData: record({ beds: { type: 'integer' } }),
    // All of its fields are the group: it stays a record of its own.
    PeriodOnlyData: record({}),
  };
}

/** Validates `value` against component `name` of `all` (as the document's $refs resolve). */
function accepts(all: Record<string, Schema>, name: string, value: unknown): boolean {
  const ajv = new Ajv2020({ strict: false });
  const doc = { $id: 'doc', components: { schemas: all } };
  ajv.addSchema(doc);
  return ajv.validate({ $ref: `doc#/components/schemas/${name}` }, value);
}

test('shareFieldGroups: fields several records share become one component the records include with allOf', () => {
  const before = schemas();
  const after = shareFieldGroups(schemas());
  const group = Object.keys(after).find((k) => !(k in before));
  assert.equal(group, 'PeriodFields');
  assert.deepEqual(Object.keys((after.PeriodFields!.properties as Schema) ?? {}), ['period', 'region_key', 'region_name']);
  assert.deepEqual(after.PeriodFields!.required, ['period', 'region_key', 'region_name']);
  for (const name of ['CareData', 'ChildcareData', 'TourismData']) {
    assert.deepEqual(after[name]!.allOf, [{ $ref: '#/components/schemas/PeriodFields' }], name);
    assert.equal(Object.keys(after[name]!.properties as Schema).length, 1, `${name} keeps its own field`);
  }
  assert.equal(after.PeriodOnlyData!.allOf, undefined, 'a record made only of the group keeps its fields');
  assert.ok(JSON.stringify(after).length < JSON.stringify(before).length, 'the document gets smaller');
});

test('shareFieldGroups: every record accepts and refuses exactly what it did before', () => {
  const before = schemas();
  const after = shareFieldGroups(schemas());
  const good = { period: '2024', region_key: '05315', region_name: 'Köln', homes: 3 };
  const cases: [unknown, string][] = [
    [good, 'a whole answer'],
    [{ ...good, region_name: null }, 'a null where the field may be null'],
    [{ ...good, region_key: undefined }, 'a required group field missing'],
    [{ ...good, period: 2024 }, 'a group field of the wrong type'],
    [{ ...good, homes: 'three' }, 'an own field of the wrong type'],
    [{ ...good, homes: undefined }, 'an own field missing'],
  ];
  for (const [value, what] of cases) {
    const json = JSON.parse(JSON.stringify(value)) as unknown;
    assert.equal(accepts(after, 'CareData', json), accepts(before, 'CareData', json), what);
  }
  assert.equal(accepts(after, 'CareData', good), true);
});

test('shareFieldGroups: a nullable record that includes a group still accepts null; a record inside a component may be the group alone', () => {
  const nullable = { ...record({ homes: { type: 'integer' } }), type: ['object', 'null'] };
  const all = shareFieldGroups({
    CareData: record({ homes: { type: 'integer' } }),
    ChildcareData: record({ places: { type: 'integer' } }),
    // A GeoJSON row beside its item: the item's fields but one.
    Features: { type: 'object', properties: { row: record({}), latest: nullable } },
  });
  const latest = (all.Features!.properties as Schema).latest as Schema;
  assert.deepEqual(Object.keys(latest).sort(), ['anyOf']);
  assert.equal(accepts(all, 'Features', { row: { period: null, region_key: null, region_name: 'x' }, latest: null }), true);
  assert.equal(accepts(all, 'Features', { row: { period: null, region_key: null }, latest: null }), false);
  assert.deepEqual((all.Features!.properties as Schema).row, { type: 'object', allOf: [{ $ref: '#/components/schemas/PeriodFields' }] });
});
