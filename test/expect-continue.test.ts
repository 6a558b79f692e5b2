import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from './helpers/app.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawConnection, getRequest, header, type WireResponse } from './helpers/raw-connection.ts';

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

/** The final answers (1xx left out) to `bytes` on one connection, and whether the server kept the connection open after them. */
async function finalAnswers(url: string, bytes: string, count: number): Promise<{ answers: WireResponse[]; open: boolean }> {
  const c = await RawConnection.open(url);
  try {
    c.write(bytes);
    const answers: WireResponse[] = [];
    while (answers.length < count) {
      const r = await c.read();
      if (r.status >= 200) answers.push(r);
    }
    return { answers, open: !c.closed };
  } finally {
    c.close();
  }
}

test('Expect: 100-continue on a bodiless GET with a GET pipelined behind it: both answered on a kept connection, as bare node:http does', async () => {
  const bare = createServer((req, res) => res.end(`answer to ${req.url}`));
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  try {
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
    const variants: Record<string, string>[] = [{ Expect: '100-continue' }, { Expect: '100-continue', 'Content-Length': '0' }];
    for (const expecting of variants) {
      const bytes = getRequest('/api/v1/health', expecting) + getRequest('/api/v1/cities/koeln');
      const reference = await finalAnswers(bareUrl, bytes, 2);
      const ours = await finalAnswers(app.url, bytes, 2);
      assert.deepEqual(
        ours.answers.map((r) => r.status),
        reference.answers.map((r) => r.status),
      );
      assert.equal(JSON.parse(ours.answers[0]!.body).data.status, 'ok');
      assert.equal(JSON.parse(ours.answers[1]!.body).data.slug, 'koeln', 'the pipelined request is answered too');
      assert.equal(header(ours.answers[0]!, 'connection'), header(reference.answers[0]!, 'connection'), 'the connection is not closed after the first answer');
      assert.equal(ours.open, reference.open);
    }
  } finally {
    bare.close();
  }
});
