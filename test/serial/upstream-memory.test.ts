import { at } from '../helpers/json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeEnv, startApp } from '../helpers/app.ts';
import { CITIES } from '../../src/cities/register.ts';

/**
 * Oversize upstream bodies: every source has a realistic cap (Bright Sky's answers are a few KB,
 * its cap 2 MB), and all bodies being read share one in-flight byte budget. Forty 50 MB answers at
 * once must neither be held nor leave the process bloated.
 */
const BODY_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');
let huge: Server;
let url: string;
before(async () => {
  // Streams 50 MB (chunked, or with a declared length on ?declared) until done or the client hangs up.
  huge = createServer((req, res) => {
    const declared = (req.url ?? '').includes('declared') || req.headers['x-declared'] !== undefined;
    res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(BODY_BYTES) } : {}) });
    let sent = 0;
    const pump = () => {
      while (sent < BODY_BYTES && !res.destroyed) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) return res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => huge.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(huge.address() as AddressInfo).port}`;
});
after(async () => {
  huge.closeAllConnections();
  await new Promise((r) => huge.close(r));
});

test('forty concurrent 50 MB upstream answers: each a quick 503 problem, RSS stays bounded, the byte budget is released', async () => {
  const app = await startApp({ ...fakeEnv(url), BRIGHTSKY_BASE_URL: url, UPSTREAM_INFLIGHT_MAX_BYTES: String(32 * 1024 * 1024) });
  try {
    await app.get('/api/v1/cities/berlin'); // warm up
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const cities = CITIES.slice(0, 40).map((c) => c.slug);
    const answers = await Promise.all(cities.map((slug) => app.get(`/api/v1/cities/${slug}/weather`)));
    clearInterval(sampler);
    for (const r of answers) {
      assert.equal(r.status, 503);
      assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.equal(at(r.json, 'code'), 'upstream_unavailable');
    }
    const grewMb = (peak - rssBefore) / 1024 / 1024;
    // 40 answers x 50 MB would be 2 GB; capped at 2 MB each and 32 MB in total, far less is ever held.
    assert.ok(grewMb < 200, `RSS grew by ${grewMb.toFixed(0)} MB`);
    assert.equal(app.rt.upstream.budget.used, 0, 'every reservation was given back');
  } finally {
    await app.close();
  }
});

test('a declared oversize length is refused before reading a byte', async () => {
  const app = await startApp({ ...fakeEnv(url), BRIGHTSKY_BASE_URL: `${url}/declared` });
  try {
    const r = await app.get('/api/v1/cities/bonn/weather');
    assert.equal(r.status, 503);
    assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  } finally {
    await app.close();
  }
});
