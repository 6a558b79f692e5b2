import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync } from 'node:zlib';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { UpstreamClient, buildUrl } from '../src/upstream/client.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { deadline, withDeadline } from '../src/core/deadline.ts';

let fake: FakeUpstream;
let other: FakeUpstream;
const client = new UpstreamClient({
  userAgent: 'Stadtdaten/1.0.0 (+https://example.org/contact)',
  connectTimeoutMs: 500,
  timeoutMs: 500,
  maxResponseBytes: 1024,
});
before(async () => {
  fake = await new FakeUpstream().start();
  other = await new FakeUpstream().start();
});
after(async () => {
  await client.close();
  await fake.stop();
  await other.stop();
});

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof UpstreamError);
    return e;
  }
  throw new Error('expected a failure');
}

test('path values are percent-encoded as one segment and query values encoded, never spliced raw', () => {
  const u = buildUrl('https://x.test/api', '/stations/{id}/board', { id: '../8000105?x=1#f' }, { q: 'Köln Hbf&a=b', skip: undefined });
  assert.equal(u.pathname, '/api/stations/..%2F8000105%3Fx%3D1%23f/board');
  assert.equal(u.searchParams.get('q'), 'Köln Hbf&a=b');
  assert.equal(u.searchParams.has('skip'), false);
});

test('sends the configured User-Agent and accepts gzip and br, decoding both', async () => {
  fake.get('/gz', { json: { ok: 'gzip' }, gzip: true });
  fake.get('/br', () => ({ body: brotliCompressSync(Buffer.from('{"ok":"br"}')), headers: { 'content-encoding': 'br', 'content-type': 'application/json' } }));
  const gz = await client.call(fake.url, '/gz');
  assert.deepEqual(JSON.parse(gz.body.toString()), { ok: 'gzip' });
  const br = await client.call(fake.url, '/br');
  assert.deepEqual(JSON.parse(br.body.toString()), { ok: 'br' });
  const req = fake.requests.find((r) => r.url === '/gz')!;
  assert.equal(req.headers['user-agent'], 'Stadtdaten/1.0.0 (+https://example.org/contact)');
  assert.match(String(req.headers['accept-encoding']), /gzip.*br/);
});

test('a response over the size cap is refused (declared and streamed, also after decompression)', async () => {
  fake.get('/big', { body: 'x'.repeat(5000) });
  assert.equal((await failure(client.call(fake.url, '/big'))).kind, 'too_large');
  fake.get('/bomb', { body: 'y'.repeat(100_000), gzip: true });
  assert.equal((await failure(client.call(fake.url, '/bomb'))).kind, 'too_large');
});

test('a body with a declared length arrives intact, also in many chunks, compressed or not', async () => {
  const big = new UpstreamClient({ ...client.opts, maxResponseBytes: 4 << 20 });
  try {
    const bytes = Buffer.from(Array.from({ length: 3 << 20 }, (_, i) => i % 251));
    fake.get('/sized', () => ({ body: bytes, headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) } }));
    const r = await big.call(fake.url, '/sized');
    assert.equal(r.body.length, bytes.length);
    assert.ok(r.body.equals(bytes));
    fake.get('/sized-gz', { body: 'z'.repeat(900), gzip: true });
    assert.equal((await client.call(fake.url, '/sized-gz')).body.toString(), 'z'.repeat(900));
    // A declared length over the cap is still refused before reading.
    assert.equal((await failure(client.call(fake.url, '/sized'))).kind, 'too_large');
  } finally {
    await big.close();
  }
});

test('a hung upstream times out', async () => {
  fake.get('/slow', { body: 'late', delayMs: 2000 });
  const started = Date.now();
  assert.equal((await failure(client.call(fake.url, '/slow'))).kind, 'timeout');
  assert.ok(Date.now() - started < 1800);
});

test('redirects are followed only within the same host', async () => {
  fake.get('/old', { status: 301, headers: { location: '/new' } });
  fake.get('/new', { body: 'moved' });
  assert.equal((await client.call(fake.url, '/old')).body.toString(), 'moved');
  fake.get('/away', { status: 302, headers: { location: `${other.url}/elsewhere` } });
  other.get('/elsewhere', { body: 'nope' });
  assert.equal((await failure(client.call(fake.url, '/away'))).kind, 'redirect');
  assert.equal(other.count('/elsewhere'), 0);
});

test('at most three redirects are followed; a fourth, or one back to a URL already asked, is a redirect failure', async () => {
  for (let i = 0; i < 4; i++) fake.get(`/hop${i}`, { status: i % 2 ? 302 : 301, headers: { location: `/hop${i + 1}` } });
  fake.get('/hop4', { body: 'arrived' });
  const arrived = await client.call(fake.url, '/hop1');
  assert.equal(arrived.body.toString(), 'arrived');
  assert.equal(arrived.url, `${fake.url}/hop4`);
  const tooMany = await failure(client.call(fake.url, '/hop0'));
  assert.equal(tooMany.kind, 'redirect');
  assert.match(tooMany.message, /too many redirects/);
  fake.get('/loop-a', { status: 307, headers: { location: '/loop-b' } });
  fake.get('/loop-b', { status: 307, headers: { location: '/loop-a' } });
  assert.equal((await failure(client.call(fake.url, '/loop-a'))).kind, 'redirect');
});

test('an error answer accepted by okStatuses arrives decoded', async () => {
  fake.get('/missing-gz', { status: 404, json: { error: 'no such id' }, gzip: true });
  const r = await client.call(fake.url, '/missing-gz', { okStatuses: [404] });
  assert.deepEqual(JSON.parse(r.body.toString()), { error: 'no such id' });
});

test('HTTP errors are failures with their status; 429 carries Retry-After', async () => {
  fake.get('/gone', { status: 500, body: 'err' });
  assert.equal((await failure(client.call(fake.url, '/gone'))).status, 500);
  fake.get('/busy', { status: 429, headers: { 'retry-after': '7' } });
  const e = await failure(client.call(fake.url, '/busy'));
  assert.equal(e.kind, 'rate_limited');
  assert.equal(e.retryAfterMs, 7000);
  fake.get('/maybe', { status: 404, body: '{}' });
  assert.equal((await client.call(fake.url, '/maybe', { okStatuses: [404] })).status, 404);
});

test('connection reset is a network failure', async () => {
  fake.mode = 'down';
  assert.equal((await failure(client.call(fake.url, '/any'))).kind, 'network');
  fake.mode = 'normal';
});

test('deadlines: abort with a TimeoutError when due, and leave no timer behind once the work is done', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const due = deadline(20);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(due.signal.aborted, true);
  assert.equal((due.signal.reason as Error).name, 'TimeoutError');
  const before = timers();
  for (let i = 0; i < 100; i++) await withDeadline(60_000, async (signal) => signal.aborted);
  assert.equal(timers(), before, 'a finished request keeps no 60 s timer alive');
});
