/**
 * `Expect: 100-continue` vectors on raw bytes (attack suite): each is sent on one connection to the
 * service and to a bare `node:http` server; compared are the final answers (1xx left out) and
 * whether the connection stays open after them. Bodiless requests are answered without the interim
 * 100 by the service (RFC 9110 10.1.1 allows it) where node:http sends one, so the interim answers
 * are counted but not compared. The reference answers on a later tick, as the service does. Run alone: `node bench/attack/probes/raw-expect.ts`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { startApp } from '../../../test/helpers/app.ts';
import { RawConnection, getRequest } from '../../../test/helpers/raw-connection.ts';
import type { AttackRow, Probe } from '../row.ts';

const EXPECT = { Expect: '100-continue' };

const VECTORS: { name: string; bytes: string; finals: number }[] = [
  { name: 'bodiless GET with Expect, then a pipelined GET', bytes: getRequest('/api/v1/health', EXPECT) + getRequest('/api/v1/cities/koeln'), finals: 2 },
  {
    name: 'GET with Expect and Content-Length: 0, then a pipelined GET',
    bytes: getRequest('/api/v1/health', { ...EXPECT, 'Content-Length': '0' }) + getRequest('/api/v1/cities/koeln'),
    finals: 2,
  },
  { name: 'a large answer, then a pipelined GET with Expect', bytes: getRequest('/api/v1/cities?limit=all') + getRequest('/api/v1/health', EXPECT), finals: 2 },
  {
    name: 'three pipelined GETs, Expect on each',
    bytes: getRequest('/api/v1/health', EXPECT) + getRequest('/api/v1/cities/koeln', EXPECT) + getRequest('/api/v1/cities/bonn', EXPECT),
    finals: 3,
  },
  {
    name: 'Expect on an HTTP/1.0 GET, then a pipelined GET',
    bytes: getRequest('/api/v1/health', EXPECT, '1.0') + getRequest('/api/v1/cities/koeln'),
    finals: 1,
  },
];

interface Outcome {
  finals: number[];
  interim: number;
  open: boolean;
}

async function send(url: string, bytes: string, finals: number): Promise<Outcome> {
  const c = await RawConnection.open(url);
  const out: Outcome = { finals: [], interim: 0, open: false };
  try {
    c.write(bytes);
    while (out.finals.length < finals) {
      const r = await c.read({ timeoutMs: 3000 }).catch(() => null);
      if (!r) break;
      if (r.status < 200) out.interim++;
      else out.finals.push(r.status);
    }
    // An answer the client should not wait for: give the server a moment to close or keep the connection.
    await new Promise((r) => setTimeout(r, 200));
    out.open = !c.closed;
    return out;
  } finally {
    c.close();
  }
}

const show = (o: Outcome) => `${o.finals.join('+') || 'none'}${o.interim ? ` (${o.interim}×100)` : ''}, ${o.open ? 'kept' : 'closed'}`;

export const probe: Probe = async () => {
  const app = await startApp({});
  // Answering on a later tick, as every real handler does (the service's too): node:http's verdict on bytes that
  // follow a request depends on whether its answer is already out (an HTTP/1.0 request followed by more bytes).
  const bare = createServer((req, res) => setImmediate(() => res.end(`answer to ${req.url}`)));
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  try {
    const rows: AttackRow[] = [];
    for (const v of VECTORS) {
      const ours = await send(app.url, v.bytes, v.finals);
      const node = await send(bareUrl, v.bytes, v.finals);
      const same = ours.finals.join() === node.finals.join() && ours.open === node.open;
      rows.push({
        probe: 'raw-expect',
        measure: v.name,
        value: `service ${show(ours)}; node:http ${show(node)}`,
        verdict: `as node:http: ${same ? 'held' : 'FAILED'}`,
      });
    }
    return rows;
  } finally {
    bare.close();
    await app.close();
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await probe());
