import { Agent, request } from 'node:http';
import { CITIES } from '../../src/cities/register.ts';

/**
 * A bounded, seeded fuzzer over every route of the OpenAPI document: path and query values drawn
 * from valid ones and hostile ones (prototype keys, broken percent-encoding, huge numbers,
 * repeated parameters, control bytes, very long values), on loopback only. Every answer is checked
 * against the error contract: never a 5xx other than a 503 problem, every 4xx/5xx a problem
 * document with code and hint, no stack trace or path, no echo of the hostile marker, nosniff.
 */

export const MARKER = 'fzq7';

/** mulberry32: small, fast, seedable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface OpenApiParam {
  name: string;
  in: string;
  schema?: { type?: string; enum?: string[]; minimum?: number };
}
export interface FuzzRoute {
  method: string;
  template: string;
  params: OpenApiParam[];
}

type ParamOrRef = OpenApiParam | { $ref: string };

export function routesOf(openapi: {
  paths: Record<string, Record<string, { parameters?: ParamOrRef[] }>>;
  components?: { parameters?: Record<string, OpenApiParam> };
}): FuzzRoute[] {
  // Shared parameters (paging, If-None-Match) are `$ref`s to components.parameters.
  const resolve = (p: ParamOrRef): OpenApiParam[] => {
    if (!('$ref' in p)) return [p];
    const shared = openapi.components?.parameters?.[p.$ref.replace('#/components/parameters/', '')];
    return shared ? [shared] : [];
  };
  const out: FuzzRoute[] = [];
  for (const [template, ops] of Object.entries(openapi.paths)) {
    for (const [method, op] of Object.entries(ops)) out.push({ method: method.toUpperCase(), template, params: (op.parameters ?? []).flatMap(resolve) });
  }
  return out;
}

/** Already-encoded hostile fragments, sent byte for byte. */
const RAW_HOSTILE = ['%E0%A4%A', '%', '%%', '%zz', '%00', '%2e%2e', '..', '%2F..%2F..%2Fetc%2Fpasswd', '%C0%AF', '%F0%9F%98%80', '%FF%FE'];
/** Hostile values, encoded before sending. */
const HOSTILE = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  `<script>${MARKER}</script>`,
  `${MARKER}' OR 1=1--`,
  `${MARKER}\u0000`,
  `${MARKER}\r\nX-Injected: 1`,
  '😀',
  '   ',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  '1.5',
  `${MARKER}${'a'.repeat(250)}`,
  `${MARKER}${'ö'.repeat(120)}`,
  '{}',
  '[]',
];
const SLUG_LIKE = ['München', 'muenchen', 'munchen', 'Cologne', 'KOELN', 'frankfurt', 'halle', 'koelnn', 'berlin ', 'atlantis'];

export interface FuzzStats {
  requests: number;
  byStatus: Record<string, number>;
  violations: { what: string; method: string; path: string; status: number; detail: string }[];
  maxMs: number;
  networkErrors: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
}

function send(agent: Agent, port: number, method: string, path: string, body?: string): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: body ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: '127.0.0.1' } : { host: '127.0.0.1' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error('client timeout')));
    req.end(body);
  });
}

export interface FuzzOptions {
  port: number;
  routes: FuzzRoute[];
  requests: number;
  seed: number;
  concurrency?: number;
  /** Longest an answer may take (the request budget plus slack). */
  maxMs: number;
}

export async function fuzz(o: FuzzOptions): Promise<FuzzStats> {
  const r = rng(o.seed);
  const pick = <T>(xs: readonly T[]): T => {
    const x = xs[Math.floor(r() * xs.length)];
    if (x === undefined) throw new Error('pick from an empty list');
    return x;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency ?? 16 });
  const stats: FuzzStats = { requests: 0, byStatus: {}, violations: [], maxMs: 0, networkErrors: 0 };

  const value = (p: OpenApiParam | null): string => {
    const x = r();
    if (x < 0.12) return pick(RAW_HOSTILE);
    if (x < 0.42) return encodeURIComponent(pick(HOSTILE));
    if (p?.schema?.enum && x < 0.8) return encodeURIComponent(pick(p.schema.enum));
    if (p?.schema?.type === 'integer') return String(Math.floor(r() * 300) - 5);
    if (p && /slug|city/.test(p.name)) return encodeURIComponent(x < 0.8 ? pick(CITIES).slug : pick(SLUG_LIKE));
    if (p?.name === 'eva') return String(8000000 + Math.floor(r() * 400));
    if (p?.name === 'cities') return encodeURIComponent(Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(CITIES).slug).join(','));
    return encodeURIComponent(pick(SLUG_LIKE));
  };

  const make = (): { method: string; path: string; body?: string } => {
    const route = pick(o.routes);
    let path = route.template.replace(/\{(\w+)\}/g, (_, name: string) =>
      value(route.params.find((p) => p.name === name && p.in === 'path') ?? { name, in: 'path' }),
    );
    const query: string[] = [];
    for (const p of route.params.filter((q) => q.in === 'query')) {
      if (r() < 0.45) query.push(`${p.name}=${value(p)}`);
      if (r() < 0.04) query.push(`${p.name}=${value(p)}`); // repeated
    }
    if (r() < 0.1) query.push(`${encodeURIComponent(pick(HOSTILE))}=${value(null)}`);
    if (query.length) path += `?${query.join('&')}`;
    if (r() < 0.03) path = path.replace(/\/api\/v1/, `/api/v1/${pick(RAW_HOSTILE)}`);
    let method = route.method;
    const m = r();
    if (m < 0.04) method = 'HEAD';
    else if (m < 0.06) method = 'DELETE';
    else if (m < 0.07) method = 'OPTIONS';
    let body: string | undefined;
    if (method === 'POST') {
      const b = r();
      body =
        b < 0.3
          ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'city', arguments: { slug: pick(CITIES).slug } } })
          : b < 0.5
            ? JSON.stringify(Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })))
            : b < 0.7
              ? `{"jsonrpc":"2.0","id":1,"method":"${MARKER}"`
              : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: pick(HOSTILE), arguments: { slug: pick(HOSTILE) } } });
    }
    return { method, path, body };
  };

  const check = (req: { method: string; path: string }, a: Answer) => {
    const bad = (what: string, detail = '') =>
      stats.violations.length < 200 &&
      stats.violations.push({ what, method: req.method, path: req.path.slice(0, 160), status: a.status, detail: detail.slice(0, 200) });
    stats.byStatus[a.status] = (stats.byStatus[a.status] ?? 0) + 1;
    stats.maxMs = Math.max(stats.maxMs, a.ms);
    if (a.ms > o.maxMs) bad('slower than the budget', `${a.ms} ms`);
    if (a.headers['x-content-type-options'] !== 'nosniff') bad('no nosniff');
    // A stack frame reads `at name (file:line:col)`; prose folded onto a new line ("at most 20") is not one.
    if (/\n\s+at \S+ \(|\n\s+at (file|node):|\.ts:\d+|node_modules|\/work\/|Error: /.test(a.body)) bad('stack trace or path in body', a.body);
    const isMcp = req.path.startsWith('/mcp');
    // A HEAD answer has no body to tell the problem code by.
    const problem503 = a.status === 503 && (req.method === 'HEAD' || /"code":"(upstream_unavailable|not_ready)"/.test(a.body));
    if (a.status >= 500 && !problem503) bad('5xx', a.body);
    if (a.status >= 400 && !isMcp && req.method !== 'HEAD') {
      if (!String(a.headers['content-type'] ?? '').startsWith('application/problem+json'))
        bad('error without problem content type', String(a.headers['content-type']));
      try {
        const p = JSON.parse(a.body) as { code?: unknown; hint?: unknown };
        if (typeof p.code !== 'string' || typeof p.hint !== 'string') bad('problem without code/hint', a.body);
      } catch {
        bad('problem not JSON', a.body);
      }
      if (a.body.includes(MARKER)) bad('input echoed in a problem', a.body);
    }
  };

  let next = 0;
  const worker = async () => {
    while (next < o.requests) {
      next++;
      const req = make();
      try {
        const a = await send(agent, o.port, req.method, req.path, req.body);
        stats.requests++;
        check(req, a);
      } catch (err) {
        stats.requests++;
        stats.networkErrors++;
        if (stats.violations.length < 200)
          stats.violations.push({ what: 'network error', method: req.method, path: req.path.slice(0, 160), status: 0, detail: String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 16 }, worker));
  agent.destroy();
  return stats;
}
