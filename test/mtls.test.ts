import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { fakeEnv, startApp, type TestResponse } from './helpers/app.ts';
import { fixture } from './helpers/fake-upstream.ts';
import { at } from './helpers/json.ts';

/**
 * Mutual TLS against Mobilithek, proven on loopback: an HTTPS fake that demands a client
 * certificate of its own CA. Certificates are generated per run with the openssl CLI (nothing
 * secret or expiring is committed): a CA, a server certificate for 127.0.0.1, a client .p12 of
 * that CA and a client .p12 of another CA. Each .p12 also carries the test CA, which is how the
 * client trusts the fake server (Node adds a PKCS#12's extra certificates to the trust store).
 */

const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-mtls-'));
const file = (name: string) => join(dir, name);
const PASSWORD = 'test-password';
const SUBSCRIPTION = 'hannover-mtls-subscription';
const PULL = `/mobilithek/api/v1.0/subscription/${SUBSCRIPTION}/clientPullService`;

function openssl(...args: string[]) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A P-256 key and a certificate for `cn` signed by the CA `ca` (its .crt/.key in `dir`). */
function issue(name: string, cn: string, ca: string, ext: string) {
  openssl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    `/CN=${cn}`,
    '-out',
    `${name}.csr`,
  );
  writeFileSync(file(`${name}.ext`), ext);
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  );
}

function authority(name: string) {
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-subj',
    `/CN=${name}`,
    '-days',
    '2',
    '-out',
    `${name}.crt`,
  );
}

let server: Server;
let base = '';
const seen: { authorized: boolean }[] = [];

before(async () => {
  authority('test-ca');
  authority('rogue-ca');
  issue('server', '127.0.0.1', 'test-ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  issue('client', 'stadtdaten-test-client', 'test-ca', 'extendedKeyUsage=clientAuth\n');
  issue('rogue', 'stadtdaten-rogue-client', 'rogue-ca', 'extendedKeyUsage=clientAuth\n');
  for (const name of ['client', 'rogue']) {
    openssl(
      'pkcs12',
      '-export',
      '-in',
      `${name}.crt`,
      '-inkey',
      `${name}.key`,
      '-certfile',
      'test-ca.crt',
      '-passout',
      `pass:${PASSWORD}`,
      '-out',
      `${name}.p12`,
    );
  }
  const body = gzipSync(fixture('mobilithek/hannover-situation-publication.xml'));
  server = createServer(
    {
      key: readFileSync(file('server.key')),
      cert: readFileSync(file('server.crt')),
      ca: readFileSync(file('test-ca.crt')),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      seen.push({ authorized: (req.socket as { authorized?: boolean }).authorized === true });
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      if (url.pathname !== PULL || url.searchParams.get('subscriptionID') !== SUBSCRIPTION) return void res.writeHead(403).end();
      res.writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' }).end(body);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}/mobilithek/api/v1.0`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Hannover's traffic reports through a fresh app with the Mobilithek base on the HTTPS fake. */
async function reports(env: Record<string, string>): Promise<TestResponse> {
  const app = await startApp({ ...fakeEnv('http://127.0.0.1:9'), MOBILITHEK_HANNOVER_BASE_URL: base, ...env });
  try {
    return await app.get('/api/v1/live/hannover/traffic-reports');
  } finally {
    await app.close();
  }
}

const credentials = (p12: string) => ({
  MOBILITHEK_CERT_PATH: file(p12),
  MOBILITHEK_CERT_PASSWORD: PASSWORD,
  HANNOVER_TRAFFIC_SUBSCRIPTION_ID: SUBSCRIPTION,
});

test('the right client certificate: the server sees an authorized client and the route answers ok', async () => {
  seen.length = 0;
  const r = await reports(credentials('client.p12'));
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'ok');
  assert.equal(at(r.json, 'meta.source'), 'mobilithek-hannover');
  assert.ok(Array.isArray(at(r.json, 'data')));
  assert.deepEqual(seen, [{ authorized: true }]);
});

test('a certificate of another CA is refused in the handshake: an honest 503, no 500, nothing served', async () => {
  seen.length = 0;
  const r = await reports(credentials('rogue.p12'));
  assert.equal(r.status, 503);
  assert.equal(at(r.json, 'code'), 'upstream_unavailable');
  assert.equal(at(r.json, 'source'), 'mobilithek-hannover');
  assert.deepEqual(seen, [], 'the server never handled a request');
});

test('a wrong certificate password or a missing certificate file is a 503, never a 500', async () => {
  const wrong = await reports({ ...credentials('client.p12'), MOBILITHEK_CERT_PASSWORD: 'not-the-password' });
  assert.equal(wrong.status, 503);
  assert.equal(at(wrong.json, 'code'), 'upstream_unavailable');
  const missing = await reports(credentials('absent.p12'));
  assert.equal(missing.status, 503);
  assert.equal(at(missing.json, 'code'), 'upstream_unavailable');
  assert.doesNotMatch(missing.text, /absent\.p12|stadtdaten-mtls/, 'no path in the body');
});

test('without the certificate variables the route is disabled and names them', async () => {
  seen.length = 0;
  const r = await reports({ HANNOVER_TRAFFIC_SUBSCRIPTION_ID: SUBSCRIPTION });
  assert.equal(r.status, 200);
  assert.equal(at(r.json, 'meta.source_status'), 'disabled');
  assert.match(String(at(r.json, 'meta.disabled_reason')), /MOBILITHEK_CERT_PATH, MOBILITHEK_CERT_PASSWORD/);
  assert.deepEqual(seen, []);
});
