import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from '../src/core/schema.ts';
import { jsonPath, shaped } from '../src/core/upstream-shape.ts';
import { driftMessage, FormatDriftError, isFormatDrift } from '../src/core/format-drift-error.ts';

/** The boundary of every adapter (docs/contract.md, "Format drift"): only the members read, optional ones nullish. */
const Shape = z.looseObject({
  stations: z.array(z.looseObject({ uuid: z.string(), name: z.string().nullish(), lat: z.number().nullable() })),
  next: z.string().nullish(),
});

const drift = (fn: () => unknown): FormatDriftError => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof FormatDriftError, `a FormatDriftError, not ${String(err)}`);
    return err;
  }
  assert.fail('no error');
};

test('shaped: an answer of the declared shape passes, members it does not declare kept and never checked', () => {
  const body = { stations: [{ uuid: 'a', name: 'Köln', lat: 50.9, extra: [1, { x: true }] }], vendor: 42 };
  const out = shaped(Shape, body, 'Test answer');
  assert.equal(out.stations[0]?.uuid, 'a');
  assert.deepEqual(out.stations[0]?.extra, [1, { x: true }]);
});

test('shaped: optional members missing or null pass; the record gets null from them', () => {
  const out = shaped(
    Shape,
    {
      stations: [
        { uuid: 'a', lat: null },
        { uuid: 'b', name: null, lat: 1 },
      ],
    },
    'Test answer',
  );
  assert.equal(out.stations[0]?.name ?? null, null);
  assert.equal(out.stations[1]?.name, null);
  assert.equal(out.next ?? null, null);
});

test('shaped: a required member missing is format drift naming the answer and its JSON path', () => {
  const err = drift(() => shaped(Shape, { stations: [{ uuid: 'a', lat: 1 }, { lat: 2 }] }, 'Test stations.json'));
  assert.equal(err.message, 'Test stations.json $.stations[1].uuid: expected string, received undefined');
  assert.equal(err.member, '$.stations[1].uuid');
  assert.equal(err.kind, 'parse');
  assert.ok(isFormatDrift(err));
});

test('shaped: a member of another type is format drift, optional ones included', () => {
  assert.equal(drift(() => shaped(Shape, { stations: 'x' }, 'A')).message, 'A $.stations: expected array, received string');
  assert.equal(drift(() => shaped(Shape, { stations: [{ uuid: 'a', lat: '50.9' }] }, 'A')).member, '$.stations[0].lat');
  assert.equal(drift(() => shaped(Shape, { stations: [{ uuid: 'a', name: 7, lat: 1 }] }, 'A')).member, '$.stations[0].name');
  assert.equal(drift(() => shaped(Shape, { stations: [], next: {} }, 'A')).member, '$.next');
});

test('shaped: an answer that is not the declared kind at all names the answer itself ($)', () => {
  for (const body of [null, 'html', 42, []]) assert.equal(drift(() => shaped(Shape, body, 'A')).member, '$');
});

test('jsonPath: keys as members, indexes in brackets, the empty path is the answer', () => {
  assert.equal(jsonPath([]), '$');
  assert.equal(jsonPath(['data', 'stations', 2, 'lat']), '$.data.stations[2].lat');
  assert.equal(jsonPath([0, 'id']), '$[0].id');
  assert.equal(jsonPath(['data', '513', '2026-09-04 07:00:00', 2]), "$.data.513['2026-09-04 07:00:00'][2]");
  assert.equal(jsonPath(["it's"]), "$['it\\'s']");
});

test('the drift shown in /api/v1/sources keeps a path index and still hides addresses', () => {
  const err = drift(() => shaped(Shape, { stations: [{ uuid: 'a', lat: 1 }, { lat: 2 }] }, 'A'));
  assert.equal(driftMessage(err), 'A $.stations[1].uuid: expected string, received undefined');
  assert.equal(driftMessage(new Error('connect ECONNREFUSED [::1]:8080')), 'connect ECONNREFUSED <upstream>');
  assert.equal(driftMessage(new Error('at [2001:db8::1]:443 and 10.0.0.1:80')), 'at <upstream> and <upstream>');
});

test('shaped: a part of a large answer checked on its own is named by its path in the answer', () => {
  const err = drift(() => shaped(Shape, { stations: [{ lat: 1 }] }, 'Big answer', ['entities', 'Q1']));
  assert.equal(err.member, '$.entities.Q1.stations[0].uuid');
  assert.equal(err.message, 'Big answer $.entities.Q1.stations[0].uuid: expected string, received undefined');
});
