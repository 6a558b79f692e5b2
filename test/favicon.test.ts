import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useFakeApp } from './helpers/setup.ts';

const ctx = useFakeApp(() => undefined);

test('/favicon.ico and /favicon.svg answer an SVG icon, cached for a week, so no page visit logs a 404', async () => {
  for (const path of ['/favicon.ico', '/favicon.svg']) {
    const r = await ctx.app.get(path);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers.get('content-type'), 'image/svg+xml');
    assert.equal(r.headers.get('cache-control'), 'public, max-age=604800');
    assert.match(r.text, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  }
});
