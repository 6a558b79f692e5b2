import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { registerAllFixtures } from './fixtures/index.ts';
import { fakeEnv, startApp, type TestApp } from './helpers/app.ts';
import { SseReader } from './helpers/sse.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { CADDY_MISSING, NGINX_MISSING, startCaddy, startNginx, type Proxy } from './helpers/proxies.ts';

/**
 * The same checks against each shipped proxy configuration (deploy/nginx/stadtdaten.conf, deploy/caddy/Caddyfile) in
 * front of one running instance: the right format for each Accept on one URL whatever was asked first, compression
 * that decompresses to the very bytes of the uncompressed answer, streams passed through, requests without Host.
 */
const fake = new FakeUpstream();
let app: TestApp;

before(async () => {
  if (NGINX_MISSING && CADDY_MISSING) return;
  registerAllFixtures(await fake.start());
  // Caddy notices a client that left a stream only when it next writes to it (a heartbeat): a short heartbeat lets
  // the streams the tests close end, and Caddy stop, within a second instead of at the default interval.
  app = await startApp({ ...fakeEnv(fake.url), STREAM_HEARTBEAT_MS: '1000' });
});

after(async () => {
  await app?.close();
  await fake.stop();
});

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** A GET as bytes on the wire: node:http leaves Content-Encoding to the caller (fetch would decode it). */
function getRaw(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string | undefined> = {};
        for (const [k, v] of Object.entries(res.headers)) h[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** One request of a sequence: its headers and query, and the Content-Type the service answers it with. */
interface Ask {
  name: string;
  headers: Record<string, string>;
  query?: string;
  type: RegExp;
  /** In nginx's cache: the entry of its format (HIT after the rounds), or one of its own (MISS the first time). */
  cached?: 'HIT' | 'MISS';
}
const JSON_ASK: Ask = { name: 'JSON', headers: { accept: 'application/json' }, type: /^application\/json/ };
const CSV_ASK: Ask = { name: 'CSV', headers: { accept: 'text/csv' }, type: /^text\/csv/ };
const GEOJSON_ASK: Ask = { name: 'GeoJSON', headers: { accept: 'application/geo+json' }, type: /^application\/geo\+json/ };
/** Asks answered as JSON, CSV or GeoJSON through another spelling: they share the entry of their format, or key their own. */
const SPELLINGS: Ask[] = [
  { name: 'no Accept', headers: {}, type: /^application\/json/, cached: 'HIT' },
  { name: 'any type', headers: { accept: '*/*' }, type: /^application\/json/, cached: 'HIT' },
  { name: "a browser's Accept", headers: { accept: BROWSER }, type: /^application\/json/, cached: 'HIT' },
  { name: 'CSV weighed below JSON', headers: { accept: 'text/csv;q=0.5, application/json' }, type: /^application\/json/, cached: 'MISS' },
  { name: 'JSON weighed below CSV', headers: { accept: 'application/json;q=0.5, text/csv' }, type: /^text\/csv/, cached: 'MISS' },
  { name: 'CSV only as text/*', headers: { accept: 'text/*, */*;q=0.1' }, type: /^text\/csv/, cached: 'MISS' },
  { name: '?format=csv over a JSON Accept', headers: { accept: 'application/json' }, query: 'format=csv', type: /^text\/csv/, cached: 'MISS' },
];

function proxySuite(name: string, missing: string | false, start: (instance: string) => Promise<Proxy>) {
  describe(`the shipped ${name} configuration`, { skip: missing }, () => {
    let proxy: Proxy;
    before(async () => {
      proxy = await start(new URL(app.url).host);
    });
    after(async () => {
      await proxy?.stop();
    });

    /** Asks `path` in this order, twice, then the other spellings: each answer has its format, the second round its first round's bytes. */
    async function sequence(path: string, order: Ask[]) {
      const first = new Map<string, Buffer>();
      for (const round of [1, 2]) {
        for (const ask of order) {
          const r = await getRaw(proxy.base + path, ask.headers);
          const what = `${name}, ${path}, ${ask.name}, round ${round}`;
          assert.equal(r.status, 200, what);
          assert.match(r.headers['content-type'] ?? '', ask.type, what);
          if (proxy.caches) assert.equal(r.headers['x-cache-status'], round === 1 ? 'MISS' : 'HIT', what);
          if (round === 1) first.set(ask.name, r.body);
          else assert.deepEqual(r.body, first.get(ask.name), `${what}: the bytes of round 1`);
        }
      }
      for (const ask of SPELLINGS) {
        const r = await getRaw(proxy.base + path + (ask.query ? `?${ask.query}` : ''), ask.headers);
        assert.match(r.headers['content-type'] ?? '', ask.type, `${name}, ${path}, ${ask.name}`);
        if (proxy.caches) assert.equal(r.headers['x-cache-status'], ask.cached, `${name}, ${path}, ${ask.name}`);
      }
      // A stream asked for on the same URL streams, uncompressed, past any cache.
      const sse = await SseReader.open(proxy.base + path, { 'accept-encoding': 'gzip, br, zstd' });
      try {
        assert.equal(sse.header('content-type'), 'text/event-stream; charset=utf-8');
        assert.equal(sse.header('content-encoding'), undefined);
        assert.notEqual(sse.header('x-cache-status'), 'HIT');
        assert.equal(JSON.parse((await sse.next()).data).meta.type, 'parking');
      } finally {
        sse.close();
      }
    }

    test('one URL answers JSON, CSV, GeoJSON and its stream by Accept: CSV asked first, then JSON', { timeout: 60_000 }, () =>
      sequence('/api/v1/cities/freiburg-im-breisgau/parking', [CSV_ASK, JSON_ASK, GEOJSON_ASK]),
    );

    test('one URL answers JSON, CSV, GeoJSON and its stream by Accept: JSON asked first, then CSV', { timeout: 60_000 }, () =>
      sequence('/api/v1/cities/karlsruhe/parking', [JSON_ASK, CSV_ASK, GEOJSON_ASK]),
    );

    test('answers are compressed for clients that accept it and decompress to the uncompressed bytes', { timeout: 60_000 }, async () => {
      const decoders: [string, (b: Buffer) => Buffer][] = [['gzip', gunzipSync]];
      if (proxy.brotli) decoders.push(['br', brotliDecompressSync]);
      if (name === 'Caddy') decoders.push(['zstd', zstdDecompressSync]);
      const paths: [string, Record<string, string>][] = [
        ['/api/v1/openapi.json', {}],
        ['/api/v1/openapi.yaml', {}],
        ['/docs/assets/swagger-ui-bundle.js', {}],
        ['/docs/assets/swagger-ui.css', {}],
        ['/docs/data-types', {}],
        ['/api/v1/cities/freiburg-im-breisgau/parking', {}],
        ['/api/v1/cities/freiburg-im-breisgau/parking', { accept: 'text/csv' }],
        ['/api/v1/cities/freiburg-im-breisgau/parking', { accept: 'application/geo+json' }],
      ];
      for (const [path, headers] of paths) {
        const plain = await getRaw(proxy.base + path, { ...headers, 'accept-encoding': 'identity' });
        assert.equal(plain.status, 200, path);
        assert.equal(plain.headers['content-encoding'], undefined, `${name}, ${path}: identity when asked`);
        for (const [coding, decode] of decoders) {
          const packed = await getRaw(proxy.base + path, { ...headers, 'accept-encoding': coding });
          const what = `${name}, ${path} ${JSON.stringify(headers)}, ${coding}`;
          assert.equal(packed.headers['content-encoding'], coding, what);
          assert.equal(packed.headers['content-type'], plain.headers['content-type'], what);
          assert.match(packed.headers.vary ?? '', /Accept-Encoding/i, what);
          assert.ok(packed.body.length < plain.body.length, `${what}: smaller`);
          assert.deepEqual(decode(packed.body), plain.body, `${what}: the same bytes`);
        }
      }
    });

    test('an HTTP/1.0 request without Host is answered', async () => {
      const r = await rawRequest(proxy.port, 'GET /api/v1/health HTTP/1.0\r\n\r\n');
      assert.equal(r.status, 200, JSON.stringify(r));
      assert.equal((JSON.parse(r.body) as { data: { status: string } }).data.status, 'ok');
    });
  });
}

proxySuite('nginx', NGINX_MISSING, startNginx);
proxySuite('Caddy', CADDY_MISSING, startCaddy);
