import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from './helpers/app.ts';
import { RawConnection, getRequest } from './helpers/raw-connection.ts';

let app: TestApp;
before(async () => {
  app = await startApp({ MCP_ALLOWED_HOSTS: '127.0.0.1' });
});
after(async () => {
  await app.close();
});

test('Expect: 100-continue on a GET pipelined behind another request: no interim 100 inside the earlier answer, both answered in order', async () => {
  const c = await RawConnection.open(app.url);
  try {
    // The first answer is large (the city list), so its body is still being written when the second head arrives.
    c.write(getRequest('/api/v1/cities?limit=all') + getRequest('/api/v1/health', { Expect: '100-continue' }));
    const first = await c.read();
    assert.equal(first.status, 200);
    assert.doesNotMatch(first.body, /HTTP\/1\.1 100/, 'no interim answer inside the first body');
    assert.equal(JSON.parse(first.body).data.length, 84);
    const second = await c.read();
    assert.equal(second.status, 200, 'the GET is answered, not with 100 Continue first');
    assert.equal(JSON.parse(second.body).data.status, 'ok');
  } finally {
    c.close();
  }
});

test('Expect: 100-continue on a bodiless GET alone: the expectation is ignored, one final answer', async () => {
  const c = await RawConnection.open(app.url);
  try {
    c.write(getRequest('/api/v1/cities/koeln', { Expect: '100-continue' }));
    const r = await c.read();
    assert.equal(r.status, 200);
  } finally {
    c.close();
  }
});

test('Expect: 100-continue on a request with a body (POST /mcp): 100 Continue, then the answer', async () => {
  const c = await RawConnection.open(app.url);
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    c.write(
      [
        'POST /mcp HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
    );
    const interim = await c.read();
    assert.equal(interim.status, 100, 'told to send the body');
    c.write(body);
    const r = await c.read();
    assert.equal(r.status, 200);
    assert.match(r.body, /"tools"/);
  } finally {
    c.close();
  }
});
