import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './helpers/fake-upstream.ts';
import { useFakeApp } from './helpers/setup.ts';
import { at, str } from './helpers/json.ts';
import { nth } from './helpers/must.ts';
import { type TestResponse } from './helpers/app.ts';
import { expectDisabled, expectUnavailable } from './helpers/status-rules.ts';
import { register as registerKoelnWaiting } from './fixtures/koeln-waiting/routes.ts';
import { parseWaitingFeed, type KoelnWaitingFeed } from '../src/sources/koeln-waiting/parse.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { OfficeWaitTimesRecord } from '../src/core/records/places.ts';
import { published } from '../src/core/schema.ts';

const feed = (): KoelnWaitingFeed => JSON.parse(fixture('koeln-waiting/waiting-od.json').toString('utf8')) as KoelnWaitingFeed;
const ctx = useFakeApp(registerKoelnWaiting);
const { fake } = ctx;
const PATH = '/api/v1/cities/koeln/office-wait-times';

const freshGet = (path: string): Promise<TestResponse> => ctx.freshGet(path);

test('parser: offices with open/closed, minutes as numbers, notices, https links, wall-clock times zoned', () => {
  const d = parseWaitingFeed(feed(), new Date('2026-11-24T10:30:00+01:00'));
  assert.equal(d.offices.length, 10);
  assert.deepEqual(d.offices[1], {
    name: 'Kundenzentrum Ehrenfeld',
    status: 'open',
    wait_minutes: 20,
    note: null,
    url: 'https://www.stadt-koeln.de/service/adressen/00180/index.html',
    updated_at: '2026-11-24T10:15:03+01:00',
  });
  const nippes = d.offices.find((o) => o.name === 'Kundenzentrum Nippes')!;
  assert.deepEqual([nippes.status, nippes.wait_minutes], ['closed', null]);
  assert.match(nippes.note ?? '', /geschlossen/);
  assert.equal(d.as_of, '2026-11-24T10:15:11+01:00');
  assert.equal(d.stale, false);
  assert.equal(parseWaitingFeed(feed(), new Date('2026-11-26T10:30:00+01:00')).stale, true, 'a day without updates: frozen');
  const summer = parseWaitingFeed({ success: true, items: [{ timestamp: '2026-07-04 00:00:03' }] }, new Date('2026-07-04T00:10:00+02:00'));
  assert.equal(nth(summer.offices, 0).updated_at, '2026-07-04T00:00:03+02:00', 'summer time offset');
  assert.throws(() => parseWaitingFeed({ success: false }, new Date()), UpstreamError);
});

test('GET office-wait-times for Köln: ok, offices list, zoned as_of, dl-de/zero attribution', async () => {
  const r = await ctx.app.get(PATH);
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.ok(published(OfficeWaitTimesRecord()).safeParse(at(r.json, 'data')).success);
  assert.equal(at(r.json, 'data.offices.length'), 10);
  assert.equal(at(r.json, 'meta.as_of'), '2026-11-24T10:15:11+01:00');
  assert.equal(at(r.json, 'attribution.license'), 'dl-de/zero-2-0');
  if (at(r.json, 'data.stale')) assert.match(str(r.json, 'meta.note'), /not current/);
});

test('GET office-wait-times: an empty feed is no_data; other cities are not_covered', async () => {
  fake.get('/externe-dienste/open-data/waiting-od.php', { json: { success: true, items: [] } });
  const empty = await freshGet(PATH);
  assert.equal(empty.status, 200);
  assert.equal(at(empty.json, 'meta.source_status'), 'no_data');
  assert.equal(at(empty.json, 'data'), null);
  const other = await ctx.app.get('/api/v1/cities/bonn/office-wait-times');
  assert.equal(at(other.json, 'meta.source_status'), 'not_covered');
  assert.deepEqual(at(other.json, 'meta.covered_cities'), ['koeln']);
});

test('GET office-wait-times: garbage or a dead feed with nothing cached is a 503 problem', async () => {
  fake.get('/externe-dienste/open-data/waiting-od.php', { body: '<html>403 Forbidden</html>', headers: { 'content-type': 'text/html' } });
  const garbage = await freshGet(PATH);
  assert.equal(garbage.status, 503);
  assert.equal(at(garbage.json, 'code'), 'upstream_unavailable');
  await expectUnavailable({ fake, path: PATH });
});

test('GET office-wait-times: toggle off is disabled', async () => {
  await expectDisabled({ fake, env: { KOELN_WAITING_ENABLED: 'false' }, path: PATH });
});
