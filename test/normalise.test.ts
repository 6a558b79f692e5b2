import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalise, normaliseRecord, snakeCase, DEPRECATED_ALIASES } from '../src/core/normalise.ts';
import { berlinLocalToDate, fixedOffsetLocalToDate, toBerlinIso } from '../src/core/time.ts';
import { nth } from './helpers/must.ts';

test('keys become snake_case English; the motorway feed raw fields stay camelCase', () => {
  const r = normaliseRecord({ displayType: 'x', isBlocked: false, raw: { extent: '1', startLcPosition: 2 } });
  assert.deepEqual(Object.keys(r).sort(), ['display_type', 'is_blocked', 'raw']);
  assert.deepEqual(r.raw, { extent: '1', startLcPosition: 2 });
  assert.equal(snakeCase('powerKW'), 'power_kw');
});

test('a missing value is null, never an empty string', () => {
  assert.deepEqual(normaliseRecord({ a: '', b: '  ', c: undefined, d: 'x' }), { a: null, b: null, c: null, d: 'x' });
});

test('post_code is always a five-character string with leading zero', () => {
  assert.equal(normaliseRecord({ post_code: 1067 }).post_code, '01067');
  assert.equal(normaliseRecord({ post_code: '01067' }).post_code, '01067');
  assert.equal(normaliseRecord({ post_code: '' }).post_code, null);
});

test('deprecated names are returned next to the canonical ones with identical values', () => {
  const r = normaliseRecord({
    post_code: '50667',
    street: 'Domkloster',
    house_number: '4',
    place: 'Köln',
    name: 'Dom',
    start: '2026-01-01T00:00:00+01:00',
    end: null,
    type: 'x',
    distance_km: 1.2,
    power_kw: 22,
    unit_type: 'AC',
  });
  for (const [old, canonical] of Object.entries(DEPRECATED_ALIASES)) assert.deepEqual(r[old], r[canonical], old);
  assert.equal(r.plz, '50667');
  assert.equal(r.zip, '50667');
  assert.equal(r.ort, 'Köln');
  assert.equal(r.city, 'Köln');
});

test('a deprecated name never appears without its canonical twin (an adapter speaking plz is lifted)', () => {
  const r = normaliseRecord({ plz: '1067', strasse: 'Hauptstr.' });
  assert.equal(r.post_code, '01067');
  assert.equal(r.plz, '01067');
  assert.equal(r.street, 'Hauptstr.');
  const lone = normaliseRecord({ zip: 12345 });
  assert.equal(lone.post_code, '12345');
});

test('nested records and lists are normalised too', () => {
  const r = normalise({ items: [{ postCode: 8001 }, { post_code: null }] }) as { items: Record<string, unknown>[] };
  assert.equal(nth(r.items, 0).post_code, '08001');
  assert.equal(nth(r.items, 0).zip, '08001');
});

test('every timestamp carries a zone: Date objects are zoned, naive timestamps are refused', () => {
  assert.equal(normaliseRecord({ observed_at: new Date('2026-01-15T12:00:00Z') }).observed_at, '2026-01-15T13:00:00+01:00');
  assert.throws(() => normaliseRecord({ observed_at: '2026-01-15T12:00:00' }), /without zone/);
});

test('time helpers: Europe/Berlin offsets in winter, summer and across DST', () => {
  assert.equal(toBerlinIso('2026-07-01T10:00:00Z'), '2026-07-01T12:00:00+02:00');
  assert.equal(toBerlinIso('2026-12-01T10:00:00Z'), '2026-12-01T11:00:00+01:00');
  assert.equal(berlinLocalToDate(2026, 3, 29, 1, 30).toISOString(), '2026-03-29T00:30:00.000Z');
  assert.equal(berlinLocalToDate(2026, 3, 29, 3, 30).toISOString(), '2026-03-29T01:30:00.000Z');
  assert.equal(berlinLocalToDate(2026, 10, 25, 12, 0).toISOString(), '2026-10-25T11:00:00.000Z');
  assert.equal(fixedOffsetLocalToDate(2026, 7, 1, 12, 0, 0, 60).toISOString(), '2026-07-01T11:00:00.000Z');
});

test('normalise copies only what changes: a clean record comes back as it is, a dirty one is never mutated', () => {
  const clean = { label: 'Hbf', stops: [{ stop_id: '1', at: '2026-11-22T10:00:00+01:00' }], n: 3 };
  assert.equal(normalise(clean), clean);
  const dirty = {
    label: 'Hbf',
    stops: [
      { stop_id: '1', at: '2026-11-22T10:00:00+01:00' },
      { stopId: '2', note: '  ' },
    ],
    plz: 1067,
  };
  const before = structuredClone(dirty);
  const out = normalise(dirty);
  assert.deepEqual(dirty, before);
  assert.deepEqual(out, {
    label: 'Hbf',
    stops: [
      { stop_id: '1', at: '2026-11-22T10:00:00+01:00' },
      { stop_id: '2', note: null },
    ],
    post_code: '01067',
    plz: '01067',
    zip: '01067',
  });
  assert.deepEqual(Object.keys(out), ['label', 'stops', 'post_code', 'plz', 'zip']);
  // The unchanged first stop is shared, the changed list and record are new.
  assert.equal(out.stops[0], dirty.stops[0]);
  assert.notEqual(out.stops, dirty.stops);
});

test('normalise is idempotent without copying: an answer with its deprecated twins comes back as it is', () => {
  const once = normaliseRecord({ name: 'Hbf', post_code: 1067 });
  assert.deepEqual(once, { name: 'Hbf', post_code: '01067', bezeichnung: 'Hbf', plz: '01067', zip: '01067' });
  assert.equal(normaliseRecord(once), once);
  // A twin that disagrees with its canonical name is rewritten from it.
  assert.deepEqual(normaliseRecord({ name: 'Hbf', bezeichnung: 'alt' }), { name: 'Hbf', bezeichnung: 'Hbf' });
});
