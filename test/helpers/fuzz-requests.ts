import { Agent, request } from 'node:http';

/** One request of a fuzz flood: a path with its query and the headers an attacker chooses. */
export interface FuzzRequest {
  path: string;
  headers: Record<string, string>;
}

/** The seeded generator of the reliability fuzzer (mulberry32): the same seed gives the same flood, so a failure can be replayed. */
export { rng as seeded } from '../../bench/reliability/fuzz.ts';

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const word = (rnd: () => number, n = 1 + Math.floor(rnd() * 12)) =>
  Array.from({ length: n }, () => pick(rnd, 'abcdefghijklmnopqrstuvwxyz0123456789-_.'.split(''))).join('');

const ACCEPTS = [
  'application/json',
  'text/csv',
  'application/geo+json',
  'application/yaml',
  'text/html',
  '*/*',
  'text/plain',
  'application/x-unknown',
  'application/json;q=0.1, text/csv;q=0.9',
];

/** Data routes of the fake upstream's fixtures, plain and composed (the prepared views); the warm-up fills their cache entries. */
export const FUZZ_DATA_PATHS = [
  '/api/v1/cities/freiburg-im-breisgau/weather',
  '/api/v1/live/braunschweig/air',
  '/api/v1/live/koeln/water-level',
  '/api/v1/cities/koeln/demographics',
  '/api/v1/cities/muenchen/tourism',
  '/api/v1/cities/koeln/overview',
  '/api/v1/cities',
  '/api/v1/sources',
];

/** The paths whose documents are built once: the warm-up asks each of them before the measurement starts. */
export const DOCUMENT_PATHS = [
  '/api/v1/openapi.json',
  '/api/v1/openapi.yaml',
  '/api/v1/openapi.json?examples=inline',
  '/api/v1/openapi.yaml?examples=inline',
  '/api/v1/openapi.json?examples=reference',
  '/docs',
  '/docs/data-types',
  '/docs/examples/weather.json',
];

/**
 * A request with a random Host, Accept and query string on one of: the OpenAPI document (both forms,
 * JSON and YAML), `dataPaths` (data routes whose cache entries the warm-up filled), the docs pages and
 * unknown routes. Query strings are random names and values: a data route ignores them or refuses them.
 */
export function fuzzRequest(rnd: () => number, dataPaths: readonly string[]): FuzzRequest {
  const host =
    rnd() < 0.8 ? `${word(rnd)}.example${rnd() < 0.3 ? `:${1 + Math.floor(rnd() * 65535)}` : ''}` : pick(rnd, ['[::1]:80', 'localhost', '', 'a'.repeat(300)]);
  const query = Array.from({ length: Math.floor(rnd() * 4) }, () => `${word(rnd)}=${encodeURIComponent(word(rnd, 1 + Math.floor(rnd() * 40)))}`);
  const kind = rnd();
  let path: string;
  if (kind < 0.35) {
    path = `/api/v1/openapi.${pick(rnd, ['json', 'yaml'])}`;
    query.push(`examples=${pick(rnd, ['inline', 'reference', 'inline', word(rnd)])}`);
  } else if (kind < 0.7) path = pick(rnd, dataPaths);
  else if (kind < 0.85)
    path = pick(rnd, ['/docs', '/docs/data-types', '/docs/examples/weather.json', `/docs/examples/${word(rnd)}.json`, '/api/v1/cities', '/api/v1/health']);
  else path = pick(rnd, [`/api/v1/${word(rnd)}`, `/${word(rnd)}/${word(rnd)}`, `/api/v1/cities/${word(rnd)}/${word(rnd)}`, `/docs/${word(rnd)}`]);
  const qs = query.length ? `${path.includes('?') ? '&' : '?'}${query.join('&')}` : '';
  const headers: Record<string, string> = { host, accept: pick(rnd, ACCEPTS) };
  if (rnd() < 0.2) headers['accept-language'] = word(rnd);
  if (rnd() < 0.1) headers['if-none-match'] = `"${word(rnd)}"`;
  return { path: path + qs, headers };
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** Longest a fuzz request may take; one still unanswered then (an open stream) is cut and counts as status 0. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Sends one request over plain node:http (fetch will not send a chosen Host) and reads the whole
 * answer; resolves to its status. The floods send no `text/event-stream`: a stream answers until
 * the client leaves, and that is the streams' own probe.
 */
export function send(base: string, r: FuzzRequest): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: r.path, headers: r.headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs `requests` through `send` with `concurrency` in flight; calls `each` after every answer with the count so far. */
export async function flood(
  base: string,
  requests: readonly FuzzRequest[],
  concurrency: number,
  each?: (done: number, status: number) => void | Promise<void>,
) {
  let next = 0;
  let done = 0;
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const status = await send(base, requests[next++]!);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await each?.(++done, status);
      }
    }),
  );
  return statuses;
}
