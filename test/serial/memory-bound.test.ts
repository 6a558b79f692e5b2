import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startMemoryServer, type MemoryServer, type MemorySample } from '../helpers/memory-server.ts';
import { DOCUMENT_PATHS, FUZZ_DATA_PATHS, flood, fuzzRequest, seeded, send } from '../helpers/fuzz-requests.ts';

/**
 * Memory is bounded by configuration, not by clients: a flood of requests with random Host,
 * Accept, query strings and paths (the OpenAPI document in both forms, data routes, docs pages,
 * unknown routes) leaves the server's memory after forced collections where it was before. The
 * server runs in a child process, so the figures are the server's alone.
 */

const MB = 1024 * 1024;
const SAMPLES = 3;

let server: MemoryServer;
before(async () => {
  server = await startMemoryServer();
});
after(async () => {
  await server?.stop();
});

/** The least of several samples after forced collections: a collection that left garbage once does not count as growth. */
async function settled(): Promise<MemorySample> {
  const samples: MemorySample[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await server.measure());
  return {
    rss: Math.min(...samples.map((s) => s.rss)),
    heapUsed: Math.min(...samples.map((s) => s.heapUsed)),
    external: Math.min(...samples.map((s) => s.external)),
  };
}

test('1,000 requests with random Host, Accept, query and path: RSS and heap after GC within 20 MB of the start', async (t) => {
  // Warm-up: every document built once, every data route's cache entry filled, then a flood of its own.
  for (const path of [...DOCUMENT_PATHS, ...FUZZ_DATA_PATHS, ...FUZZ_DATA_PATHS]) await send(server.url, { path, headers: { host: 'warm.example' } });
  await flood(
    server.url,
    Array.from(
      { length: 300 },
      (
        (rnd) => () =>
          fuzzRequest(rnd, FUZZ_DATA_PATHS)
      )(seeded(1)),
    ),
    8,
  );
  const start = await settled();

  const rnd = seeded(2);
  const statuses = await flood(
    server.url,
    Array.from({ length: 1000 }, () => fuzzRequest(rnd, FUZZ_DATA_PATHS)),
    8,
  );
  const end = await settled();

  assert.equal(statuses.get(500) ?? 0, 0, 'no request got a 500');
  const grew = { rss: (end.rss - start.rss) / MB, heap: (end.heapUsed - start.heapUsed) / MB };
  const said = `RSS ${(start.rss / MB).toFixed(1)} -> ${(end.rss / MB).toFixed(1)} MB, heap ${(start.heapUsed / MB).toFixed(1)} -> ${(end.heapUsed / MB).toFixed(1)} MB`;
  t.diagnostic(said);
  assert.ok(grew.rss < 20, said);
  assert.ok(grew.heap < 20, said);
});
