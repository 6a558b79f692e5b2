import { at } from './helpers/json.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from './helpers/app.ts';
import { rawRequest, type RawResponse } from './helpers/raw-http.ts';

/**
 * Every refusal is a problem document with code and hint, also those made before any route runs
 * (Fastify's router, Node's HTTP parser), and none echoes what the client sent.
 */
let app: TestApp;
let port: number;
before(async () => {
  app = await startApp({ SERVER_HEADERS_TIMEOUT_MS: '1000', SERVER_REQUEST_TIMEOUT_MS: '2000' });
  port = (app.app.server.address() as AddressInfo).port;
});
after(async () => {
  await app.close();
});

const MARK = 'zz9plural';

function assertProblem(r: RawResponse, status: number, code: string, what: string) {
  assert.equal(r.status, status, what);
  assert.match(r.headers['content-type'] ?? '', /^application\/problem\+json/, what);
  assert.equal(r.headers['x-content-type-options'], 'nosniff', what);
  const body = JSON.parse(r.body);
  assert.equal(body.status, status, what);
  assert.equal(body.code, code, what);
  assert.ok(typeof body.hint === 'string' && body.hint.length > 0, what);
  assert.doesNotMatch(r.body, new RegExp(MARK), `${what}: input echoed`);
  assert.doesNotMatch(r.body, /at .*\.ts:\d+|node_modules|FST_ERR|Error:/, what);
}

const get = (path: string, headers = 'Host: 127.0.0.1\r\n') => rawRequest(port, `GET ${path} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);

test('prototype keys are plain unknown names: 404 problem, not 500', async () => {
  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    assertProblem(await get(`/docs/assets/${key}`), 404, 'route_not_found', key);
    const r = await app.get(`/api/v1/cities/${key}/weather`);
    assert.equal(r.status, 404, key);
    assert.equal(at(r.json, 'code'), 'city_not_found', key);
  }
});

test('bad percent-encoding: 400 problem without the URL', async () => {
  assertProblem(await get(`/api/v1/cities/${MARK}%E0%A4%A/weather`), 400, 'invalid_request', 'bad encoding');
  assertProblem(await get(`/api/v1/cities/%${MARK}`), 400, 'invalid_request', 'bad escape');
});

test('a slug over 200 characters and a URI over 2048: 414 problem', async () => {
  assertProblem(await get(`/api/v1/cities/${MARK}${'a'.repeat(201)}/weather`), 414, 'uri_too_long', 'long slug');
  assertProblem(await get(`/api/v1/cities?x=${MARK}${'a'.repeat(3000)}`), 414, 'uri_too_long', 'long URI');
});

test('headers over 16 KiB: 431 problem', async () => {
  assertProblem(await get('/api/v1/cities', `Host: 127.0.0.1\r\nX-Big: ${MARK}${'b'.repeat(17 * 1024)}\r\n`), 431, 'header_fields_too_large', 'big header');
});

test('raw UTF-8 and control bytes in the request line, a broken request line: 400 problem', async () => {
  assertProblem(await rawRequest(port, Buffer.from(`GET /api/v1/cities/köln${MARK} HTTP/1.1\r\nHost: x\r\n\r\n`, 'utf8')), 400, 'invalid_request', 'utf8');
  assertProblem(await rawRequest(port, `GET /a\x01${MARK} HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'invalid_request', 'control byte');
  assertProblem(await rawRequest(port, `${MARK}\r\n\r\n`), 400, 'invalid_request', 'garbage');
});

test('no Host header on HTTP/1.1: 400 problem', async () => {
  assertProblem(await get('/api/v1/cities', ''), 400, 'invalid_request', 'no host');
});

test('a body over 1 MiB: 413 problem', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: MARK, params: { pad: 'x'.repeat(1024 * 1024 + 10) } });
  const r = await rawRequest(
    port,
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  assertProblem(r, 413, 'payload_too_large', 'big body');
});

test('headers not finished in time: 408 problem and the connection closed', async () => {
  const r = await rawRequest(port, `GET /api/v1/cities HTTP/1.1\r\nHost: 127.0.0.1\r\nX-${MARK}: slow`, 5000);
  assertProblem(r, 408, 'request_timeout', 'slow headers');
});

test('a repeated query value is a 400 problem, an out-of-range paging value the 422 every bad paging value gets; the value never echoed', async () => {
  const repeated = await app.get('/api/v1/sources?limit=1&limit=2');
  assert.equal(repeated.status, 400);
  assert.equal(at(repeated.json, 'code'), 'invalid_request');
  for (const q of [`page=1${'0'.repeat(23)}`, 'page=200000', 'offset=99999999999', `page=${MARK}`]) {
    const r = await app.get(`/api/v1/sources?${q}`);
    assert.equal(r.status, 422, q);
    assert.equal(at(r.json, 'code'), 'invalid_parameter', q);
    assert.doesNotMatch(r.text, /1e\+23|99999999999|200000|zz9/, q);
  }
  const ok = await app.get('/api/v1/sources?limit=2&page=2');
  assert.equal(ok.status, 200);
});
