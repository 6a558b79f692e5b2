import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePlainGet, MAX_HEAD_BYTES } from '../src/http/request-head.ts';

/** The socket lane's reader of request heads: it takes only the plainest GET and declines everything else (null). */
function parse(head: string) {
  const buf = Buffer.from(`${head}\r\n\r\n`, 'latin1');
  return parsePlainGet(buf, 0, buf.length - 4);
}

test('a plain GET: the target as sent, the read headers in lower case, Host only as present', () => {
  const r = parse(
    'GET /api/v1/cities/k%C3%B6ln/weather?limit=10 HTTP/1.1\r\nhOsT: example.org\r\nIf-None-Match:  W/"a" \r\nAccept: */*\r\nOrigin: https://a.example',
  );
  assert.deepEqual(r, { url: '/api/v1/cities/k%C3%B6ln/weather?limit=10', headers: { host: '', 'if-none-match': 'W/"a"', origin: 'https://a.example' } });
});

test('a head inside a larger buffer is read between its bounds', () => {
  const buf = Buffer.from('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: y\r\n\r\n');
  const second = buf.indexOf('GET /b');
  assert.equal(parsePlainGet(buf, second, buf.length - 4)?.url, '/b');
  assert.equal(parsePlainGet(buf, 0, buf.indexOf('\r\n\r\n'))?.url, '/a');
});

test('every other form is declined, never guessed at', () => {
  const declined = {
    'another method': 'POST /a HTTP/1.1\r\nHost: x',
    HEAD: 'HEAD /a HTTP/1.1\r\nHost: x',
    'lower-case method': 'get /a HTTP/1.1\r\nHost: x',
    'HTTP/1.0': 'GET /a HTTP/1.0\r\nHost: x',
    'HTTP/2 preface': 'PRI * HTTP/2.0',
    'absolute form': 'GET http://x/a HTTP/1.1\r\nHost: x',
    'two spaces': 'GET  /a HTTP/1.1\r\nHost: x',
    'a space in the target': 'GET /a b HTTP/1.1\r\nHost: x',
    'no Host': 'GET /a HTTP/1.1\r\nAccept: */*',
    'Host twice': 'GET /a HTTP/1.1\r\nHost: x\r\nHost: y',
    'If-None-Match twice': 'GET /a HTTP/1.1\r\nHost: x\r\nIf-None-Match: "a"\r\nif-none-match: "b"',
    'Content-Length': 'GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 0',
    'Transfer-Encoding': 'GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked',
    Upgrade: 'GET /a HTTP/1.1\r\nHost: x\r\nUpgrade: websocket',
    Expect: 'GET /a HTTP/1.1\r\nHost: x\r\nExpect: 100-continue',
    'Connection: close': 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close',
    'Connection: upgrade': 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: Upgrade',
    'a line without a colon': 'GET /a HTTP/1.1\r\nHost: x\r\nBroken',
    'a space before the colon': 'GET /a HTTP/1.1\r\nHost : x',
    'folded line': 'GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b',
    'a bare LF': 'GET /a HTTP/1.1\nHost: x',
    'a bare LF in a value': 'GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\nb',
    'a control character in a value': 'GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\x01b',
    'DEL in a value': 'GET /a HTTP/1.1\r\nHost: x\r\nX-A: a\x7fb',
  };
  for (const [name, head] of Object.entries(declined)) assert.equal(parse(head), null, name);
  assert.notEqual(parse('GET /a HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive'), null, 'keep-alive is plain');
  assert.notEqual(parse('GET /a HTTP/1.1\r\nHost: x\r\nX-A: caf\xe9\tau lait'), null, 'obs-text and tab in a value, as Node takes them');
});

test("a head over Node's header size limit is left to Node (431)", () => {
  assert.equal(parse(`GET /a HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}`), null);
});
