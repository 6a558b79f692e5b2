import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { registerAllFixtures } from '../fixtures/index.ts';
import { fakeEnv, startApp, type TestApp } from '../helpers/app.ts';
import { buildCatalog, CATALOG } from '../../src/catalog/index.ts';
import { examplePath, type DataType } from '../../src/core/data-type.ts';
import { at } from '../helpers/json.ts';
import { seeded } from '../helpers/fuzz-requests.ts';

/**
 * The tolerant boundary (docs/contract.md, "Format drift"): every adapter's real payload, served by the fake upstream
 * with members removed, renamed, retyped or nulled at random. Whatever the mutation, an answer is never a 500 and
 * no promise is left rejected; it is either `ok` (the adapter read what it needs, an optional member became null) or
 * the cached value, served STALE-ON-ERROR while /api/v1/sources shows the source's format drift naming the member,
 * or no_data where the mutation made the upstream's own "nothing here" form (NOTHING_HERE).
 * Seeded: a failure names its seed and mutations, and MUTATION_SEED reruns one.
 */
const ROUNDS = Number(process.env.MUTATION_ROUNDS ?? 8);
const FIRST_SEED = Number(process.env.MUTATION_SEED ?? 20261207);
/** MUTATION_TYPES=a,b runs only these data types (replaying a failure). */
const ONLY = (process.env.MUTATION_TYPES ?? '').split(',').filter(Boolean);

/** FNV-1a, to turn a path into a seed. */
function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Kind = 'remove' | 'rename' | 'retype' | 'null';

/** Every member of a document as its path, breadth-first, the first three items of each array only. */
function members(doc: Json): (string | number)[][] {
  const out: (string | number)[][] = [];
  const queue: [Json, (string | number)[]][] = [[doc, []]];
  while (queue.length && out.length < 5000) {
    const [node, path] = queue.shift()!;
    const children: [string | number, Json][] = Array.isArray(node)
      ? node.slice(0, 3).map((v, i) => [i, v])
      : node && typeof node === 'object'
        ? Object.entries(node)
        : [];
    for (const [k, v] of children) {
      out.push([...path, k]);
      queue.push([v, [...path, k]]);
    }
  }
  return out;
}

function retyped(v: Json): Json {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return 42;
  if (typeof v === 'boolean') return 'yes';
  if (Array.isArray(v)) return {};
  if (v && typeof v === 'object') return 'x';
  return 0;
}

/** Applies one mutation at `path`; returns a description, or null when the member is gone already. */
function mutate(doc: Json, path: (string | number)[], kind: Kind): string | null {
  let parent: Json = doc;
  for (const p of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return null;
    parent = (parent as Record<string | number, Json>)[p] ?? null;
  }
  const key = path[path.length - 1]!;
  if (parent === null || typeof parent !== 'object' || !(key in parent)) return null;
  const holder = parent as Record<string | number, Json>;
  const name = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  if (kind === 'remove' || kind === 'rename') {
    const value = holder[key]!;
    if (Array.isArray(holder)) holder.splice(Number(key), 1);
    else delete holder[key];
    if (kind === 'rename' && !Array.isArray(holder)) holder[`${String(key)}_renamed`] = value;
    return `${kind} ${name}`;
  }
  holder[key] = kind === 'null' ? null : retyped(holder[key]!);
  return `${kind} ${name}`;
}

const KINDS: Kind[] = ['remove', 'rename', 'retype', 'null'];

const isObject = (v: Json): v is { [k: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A mutation can turn an answer into the upstream's own "nothing here" form; then no_data is the right answer, not a
 * broken one shown as no_data. Only these forms, each recorded or documented for its upstream, are accepted.
 */
const NOTHING_HERE: Record<string, (doc: Json) => boolean> = {
  // Bright Sky's answer for a warn cell without a warning (test/fixtures/brightsky/alerts-warncell-809374166-empty.json).
  'weather-warnings': (doc) => isObject(doc) && Array.isArray(doc.alerts) && doc.alerts.length === 0,
  // PEGELONLINE: no station within the radius is `[]`; a series whose gauge has no current value comes without
  // `currentMeasurement` (test/fixtures/pegelonline/README.md).
  // The series (W.json) is the one answer that is an object.
  'water-level': (doc) => (Array.isArray(doc) && doc.length === 0) || (isObject(doc) && doc.currentMeasurement == null),
};

/** A JSON body with one to three random mutations (each mutated body kept in `bodies`); other bodies pass unchanged. */
function mutator(seed: number, log: string[], bodies: Json[] = []) {
  return (payload: Buffer, contentType: string, url: URL): Buffer => {
    if (!/json/i.test(contentType)) return payload;
    // One generator per answer, seeded by its path: adapters that fetch in parallel meet the same mutations each run.
    const random = seeded(seed ^ stringHash(url.pathname));
    let doc: Json;
    try {
      doc = JSON.parse(payload.toString('utf8')) as Json;
    } catch {
      return payload;
    }
    const paths = members(doc);
    if (!paths.length) return payload;
    const n = 1 + Math.floor(random() * 3);
    for (let i = 0; i < n; i++) {
      const done = mutate(doc, paths[Math.floor(random() * paths.length)]!, KINDS[Math.floor(random() * KINDS.length)]!);
      if (done) log.push(done);
    }
    bodies.push(doc);
    return Buffer.from(JSON.stringify(doc));
  };
}

/**
 * Every fetched answer expires at once, stale window included, so each request fetches while it waits (no
 * background refresh) and meets the mutated upstream; a failed fetch still answers with the expired entry.
 */
function quick(dt: DataType): DataType {
  const windows = { freshSeconds: 0.001, staleSeconds: 0.001 };
  return {
    ...dt,
    cache: dt.cache === 'stored' ? dt.cache : windows,
    sources: dt.sources.map((s) => (s.role === 'part' || s.cache === 'stored' ? s : { ...s, cache: windows })),
  };
}

test(
  'mutated real payloads: never a 500 or an unhandled rejection; ok with nulls, or the cached value with format drift naming the member',
  { timeout: 900_000 },
  async () => {
    const rejections: unknown[] = [];
    const onRejection = (err: unknown) => rejections.push(err);
    process.on('unhandledRejection', onRejection);
    const fake = new FakeUpstream();
    registerAllFixtures(await fake.start());
    const catalog = buildCatalog(CATALOG.all.map(quick));
    let app: TestApp | undefined;
    const failures: string[] = [];
    const tally = { ok: 0, drift: 0, nothingHere: 0, cases: 0, unrestored: 0 };
    const cased: string[] = [];
    try {
      app = await startApp(fakeEnv(fake.url), { catalog });
      for (const dt of catalog.all) {
        if (dt.cache === 'stored' || !dt.example.city || (ONLY.length && !ONLY.includes(dt.type))) continue;
        const path = examplePath(dt);
        // Only types whose example answers ok from a JSON payload: the others have no JSON to mutate.
        const types: string[] = [];
        fake.transform = (payload, contentType) => (types.push(contentType), payload);
        const base = await app.get(path);
        fake.transform = null;
        if (base.status !== 200 || at(base.json, 'meta.source_status') !== 'ok' || !types.some((t) => /json/i.test(t))) continue;
        tally.cases++;
        cased.push(dt.type);
        for (let round = 0; round < ROUNDS; round++) {
          const seed = FIRST_SEED + round;
          const log: string[] = [];
          const bodies: Json[] = [];
          fake.transform = mutator(seed, log, bodies);
          const r = await app.get(path);
          fake.transform = null;
          const label = `${dt.type} (seed ${seed}: ${log.join(', ') || 'no mutation'})`;
          if (r.status === 500 || r.status !== 200) {
            failures.push(`${label}: status ${r.status} ${String(at(r.json, 'code') ?? '')}`);
          } else if (at(r.json, 'meta.cache_status') === 'STALE-ON-ERROR') {
            const source = String(at(r.json, 'meta.source'));
            const sources = await app.get('/api/v1/sources?limit=all');
            const entry = (at(sources.json, 'data') as { source: string; format_drift?: { first_error?: string } | null }[]).find((s) => s.source === source);
            const first = entry?.format_drift?.first_error ?? '';
            if (/^[\w$.[\]() -]+: /.test(first)) tally.drift++;
            else failures.push(`${label}: served stale without a format drift naming a member (${first || 'none'})`);
          } else if (at(r.json, 'meta.source_status') === 'ok') {
            tally.ok++;
          } else if (at(r.json, 'meta.source_status') === 'no_data' && bodies.some((b) => NOTHING_HERE[dt.type]?.(b))) {
            tally.nothingHere++;
          } else {
            failures.push(`${label}: ${String(at(r.json, 'meta.source_status'))} (a broken answer shown as ${String(at(r.json, 'meta.source_status'))})`);
          }
          // A clean fetch ends the drift and puts a good value back in the cache for the next round. A shared
          // sub-resource (FetchContext.cached, its own longer window) may still hold the mutated body: then the type's
          // further rounds would not start from its real payload, so they are left out and counted, not guessed at.
          let restored = false;
          for (let i = 0; i < 20 && !restored; i++) {
            await new Promise((r) => setTimeout(r, i === 0 ? 5 : 150));
            const clean = await app.get(path);
            restored = clean.status === 200 && at(clean.json, 'meta.source_status') === 'ok';
          }
          if (!restored) {
            tally.unrestored++;
            break;
          }
        }
      }
    } finally {
      process.off('unhandledRejection', onRejection);
      await app?.close();
      await fake.stop();
    }
    process.stderr.write(
      `adapter mutations: ${tally.cases} types, ${tally.ok} ok, ${tally.drift} drift, ${tally.nothingHere} nothing-here, ${tally.unrestored} types stopped early (a shared value kept a mutated body), ${failures.length} failures\n  types: ${cased.join(' ')}\n`,
    );
    if (!ONLY.length) assert.ok(tally.cases >= 30, `at least 30 data types read a JSON payload: ${tally.cases}`);
    assert.deepEqual(rejections.map(String), []);
    assert.deepEqual(failures, []);
  },
);
