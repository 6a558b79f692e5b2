import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUpstream } from '../helpers/fake-upstream.ts';
import { registerAllFixtures } from '../fixtures/index.ts';
import { fakeEnv, startApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { buildCatalog, CATALOG } from '../../src/catalog/index.ts';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { examplePath, type Adapter, type DataType, type FetchContext, type TypeSource } from '../../src/core/data-type.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import { at } from '../helpers/json.ts';
import { seeded } from '../helpers/fuzz-requests.ts';

/**
 * The tolerant boundary (docs/contract.md, "Format drift"): every adapter's real payload, served by the fake upstream
 * with members removed, renamed, retyped or nulled at random. Whatever the mutation, an answer is never a 500 and
 * no promise is left rejected; it is either `ok` (the adapter read what it needs, an optional member became null) or
 * the cached value, served STALE-ON-ERROR while /api/v1/sources shows the source's format drift naming the member,
 * or no_data where the mutation made the upstream's own "nothing here" form (NOTHING_HERE).
 * Seeded: a failure names its seed and mutations, and MUTATION_SEED reruns one. The same seed gives the same rounds
 * (the printed outcomes digest; MUTATION_OUTCOMES=file writes them out). The adapters' shared sub-resources (station
 * lists, national files) keep their real payloads in the first MUTATION_ROUNDS rounds and are mutated too in the
 * MUTATION_SHARED_ROUNDS rounds after them; MUTATION_SHARED=1 mutates them in every round.
 */
const ROUNDS = Number(process.env.MUTATION_ROUNDS ?? 8);
/** MUTATION_SHARED=1: mutate shared sub-resources too (every round fetches them), not only the answers. */
const MUTATE_SHARED = process.env.MUTATION_SHARED === '1';
/** Rounds after the first ROUNDS that mutate shared sub-resources as well (none more when every round does). */
const SHARED_ROUNDS = MUTATE_SHARED ? 0 : Number(process.env.MUTATION_SHARED_ROUNDS ?? 4);
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

/** UBA's answer for an hour it has not published (test/fixtures/uba/README.md): `{"data": {}}`. */
const ubaUnpublished = (doc: Json) => isObject(doc) && JSON.stringify(doc.data) === '{}';
/** An Autobahn road without items of a service (test/fixtures/autobahn/README.md): `{"<service>": []}`. */
const autobahnNone = (doc: Json) => isObject(doc) && ['roadworks', 'warning', 'closure', 'webcam'].some((s) => JSON.stringify(doc[s]) === '[]');

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
  air: ubaUnpublished,
  'air-uba': ubaUnpublished,
  // An OParl list with no item (test/fixtures/oparl/README.md): what a council system answers when nothing was filed.
  'council-papers': (doc) => isObject(doc) && JSON.stringify(doc.data) === '[]',
  // Wegweiser's region search answer without a region of the example city's AGS (Köln, 05315000): the adapter looks
  // regions up by AGS only (test/fixtures/wegweiser/README.md).
  indicators: (doc) => Array.isArray(doc) && doc.every((r) => isObject(r) && typeof r.gkz === 'string' && r.gkz !== '05315000'),
  'road-events': autobahnNone,
  traffic: autobahnNone,
  webcams: autobahnNone,
  incidents: autobahnNone,
  roadworks: autobahnNone,
};

/** A JSON body with one to three random mutations (each mutated body kept in `bodies`); other bodies pass unchanged. */
function mutator(seed: number, log: string[], bodies: Json[] = []) {
  return (payload: Buffer, contentType: string, url: URL): Buffer => {
    if (!/json/i.test(contentType)) return payload;
    // One generator per answer, seeded by its path: adapters that fetch in parallel meet the same mutations each run.
    // Epoch timestamps in a path (SMARD's week files follow the clock) are left out of the seed.
    const random = seeded(seed ^ stringHash(url.pathname.replace(/\d{10,}/g, '#')));
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

/** Every window of the harness: an entry is fresh for 0.5 ms and stale for 0.5 more, then expired. */
const WINDOWS = { freshSeconds: 0.0005, staleSeconds: 0.0005 };
/** Longer than WINDOWS: a request made after this pause fetches while it waits (no HIT, no background refresh). */
const PAST_WINDOWS_MS = 2;
/**
 * Shared sub-resources (FetchContext.cached) of the type under test, by source and name: fetched from the real payload
 * by a clean request and kept while the type's rounds run. Through the pipeline's cache they kept their own windows:
 * one that expired during a run (a minute for Hamburg's traffic pages, the hour in UBA's keys) was fetched again by
 * whichever round came next, a mutated body that still parsed stayed cached, and the type's further rounds no longer
 * started from its real payloads; so the outcome of a seed depended on the clock. A value first asked for during a
 * mutated round is used by that round only.
 */
const sharedValues = new Map<string, unknown>();
let mutating = false;
/** Set while a round that mutates shared sub-resources runs: each is fetched (and mutated) afresh. */
let mutatingShared = MUTATE_SHARED;

function quickShared(ctx: FetchContext, sourceId: string): FetchContext {
  return {
    ...ctx,
    cached: async <T>(name: string, _windows: unknown, fetch: () => Promise<T>): Promise<T> => {
      const key = `${sourceId}:${name}`;
      if (mutatingShared) return fetch();
      if (sharedValues.has(key)) return sharedValues.get(key) as T;
      if (mutating) return fetch();
      const value = await fetch();
      sharedValues.set(key, value);
      return value;
    },
    part: (source, read) => ctx.part(source, (p) => read(quickShared(p, source.id))),
  };
}
/**
 * A breaker opens as it would, but stays open for a moment only: rounds that drift one after another open it, and the
 * next type of the same source (SMARD's load, then its price) would otherwise meet it still open and be skipped.
 */
const BREAKER_COOLDOWN_SECONDS = 0.1;
/** One copy per source: the catalog holds a source id to one declaration. */
const quickDecls = new Map<string, SourceDecl>();
function quickDecl(src: SourceDecl): SourceDecl {
  const known = quickDecls.get(src.id);
  if (known) return known;
  const decl = { ...src, breaker: { ...src.breaker, cooldownSeconds: BREAKER_COOLDOWN_SECONDS } };
  quickDecls.set(src.id, decl);
  return decl;
}

function quickSource(s: TypeSource): TypeSource {
  const source = quickDecl(s.source);
  if (s.role === 'part') return { ...s, source };
  const adapter: Adapter<unknown> = (ctx) => s.adapter(quickShared(ctx, s.source.id));
  return { ...s, source, adapter, ...(s.cache === 'stored' ? {} : { cache: WINDOWS }) };
}

/**
 * Every fetched answer expires at once, stale window included, so each request fetches while it waits (no
 * background refresh) and meets the mutated upstream; a failed fetch still answers with the expired entry.
 */
function quick(dt: DataType): DataType {
  return {
    ...dt,
    cache: dt.cache === 'stored' ? dt.cache : WINDOWS,
    sources: dt.sources.map(quickSource),
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const answersOk = (r: TestResponse) => r.status === 200 && at(r.json, 'meta.source_status') === 'ok';

/** A request repeated, after a first pause and then briefly, until `done` holds or a source's breaker had time to let it through. */
async function retried(app: TestApp, path: string, firstPause: number, done: (r: TestResponse) => boolean): Promise<TestResponse> {
  let r = await pause(firstPause).then(() => app.get(path));
  for (let i = 1; i < 10 && !done(r); i++) r = await pause(150).then(() => app.get(path));
  return r;
}

test(
  'mutated real payloads: never a 500 or an unhandled rejection; ok with nulls, or the cached value with format drift naming the member',
  { timeout: 900_000 },
  async () => {
    const rejections: unknown[] = [];
    const onRejection = (err: unknown) => rejections.push(err);
    process.on('unhandledRejection', onRejection);
    // Built before anything is started: a catalog that fails to build fails the test instead of leaving a server open.
    const catalog = buildCatalog(CATALOG.all.map(quick));
    const fake = new FakeUpstream();
    registerAllFixtures(await fake.start());
    let app: TestApp | undefined;
    const failures: string[] = [];
    const tally = { ok: 0, drift: 0, nothingHere: 0, cases: 0 };
    // Every round's mutations and verdict, in order: the same seed gives the same list (its digest is printed).
    const outcomes: string[] = [];
    const cased: string[] = [];
    try {
      app = await startApp(fakeEnv(fake.url), { catalog });
      for (const dt of catalog.all) {
        if (dt.cache === 'stored' || !dt.example.city || (ONLY.length && !ONLY.includes(dt.type))) continue;
        const path = examplePath(dt);
        sharedValues.clear();
        // Only types whose example answers ok from a JSON payload: the others have no JSON to mutate.
        const types: string[] = [];
        fake.transform = (payload, contentType) => (types.push(contentType), payload);
        // A breaker the type before opened (its source's answers drifted round after round) may hold this one back.
        const base = await retried(app, path, 0, (r) => r.status !== 503);
        fake.transform = null;
        if (base.status !== 200 || at(base.json, 'meta.source_status') !== 'ok' || !types.some((t) => /json/i.test(t))) continue;
        tally.cases++;
        cased.push(dt.type);
        for (let round = 0; round < ROUNDS + SHARED_ROUNDS; round++) {
          const seed = FIRST_SEED + round;
          const shared = MUTATE_SHARED || round >= ROUNDS;
          const log: string[] = [];
          const bodies: Json[] = [];
          await pause(PAST_WINDOWS_MS);
          fake.transform = mutator(seed, log, bodies);
          mutating = true;
          mutatingShared = shared;
          const r = await app.get(path).finally(() => {
            mutating = false;
            mutatingShared = MUTATE_SHARED;
          });
          fake.transform = null;
          // Parallel fetches of one request log in arrival order: sorted, a seed's label is the same each run.
          const label = `${dt.type} (seed ${seed}${shared ? ', shared' : ''}: ${log.sort().join(', ') || 'no mutation'})`;
          const before = tally.ok + tally.drift + tally.nothingHere;
          const okBefore = tally.ok;
          if (r.status === 500 || r.status !== 200) {
            failures.push(`${label}: status ${r.status} ${String(at(r.json, 'code') ?? '')}`);
          } else if (at(r.json, 'meta.cache_status') === 'STALE-ON-ERROR') {
            const source = String(at(r.json, 'meta.source'));
            const sources = await app.get('/api/v1/sources?limit=all');
            const entry = (at(sources.json, 'data') as { source: string; format_drift?: { first_error?: string } | null }[]).find((s) => s.source === source);
            const first = entry?.format_drift?.first_error ?? '';
            // The answer's name and a JSON path; a key that is no plain name is bracketed (`$.data['2026-09-04 07:00:00']`).
            if (/^(?:[\p{L}\p{N}_$.[\]() -]|\['(?:[^'\\]|\\.)*'\])+: /u.test(first)) tally.drift++;
            else failures.push(`${label}: served stale without a format drift naming a member (${first || 'none'})`);
          } else if (at(r.json, 'meta.source_status') === 'ok') {
            tally.ok++;
          } else if (at(r.json, 'meta.source_status') === 'no_data' && bodies.some((b) => NOTHING_HERE[dt.type]?.(b))) {
            tally.nothingHere++;
          } else {
            failures.push(`${label}: ${String(at(r.json, 'meta.source_status'))} (a broken answer shown as ${String(at(r.json, 'meta.source_status'))})`);
          }
          outcomes.push(`${label}: ${tally.ok + tally.drift + tally.nothingHere > before ? String(at(r.json, 'meta.cache_status')) : 'failure'}`);
          // After a round that was not plainly ok, a clean fetch ends the drift and puts a good value back in the cache
          // (the answer's window is short, shared values are the real ones): the next round starts from there. Its
          // breaker may hold it back for a moment. After an ok round the cache already holds a good value.
          if (tally.ok > okBefore) continue;
          const clean = await retried(app, path, PAST_WINDOWS_MS, answersOk);
          if (!answersOk(clean)) {
            failures.push(`${label}: the real payload did not answer ok again after this round`);
            break;
          }
        }
      }
    } finally {
      process.off('unhandledRejection', onRejection);
      await app?.close();
      await fake.stop();
    }
    if (process.env.MUTATION_OUTCOMES) writeFileSync(process.env.MUTATION_OUTCOMES, outcomes.join('\n') + '\n');
    process.stderr.write(
      `adapter mutations: ${tally.cases} types, ${ROUNDS} rounds${MUTATE_SHARED ? ' (shared values mutated)' : ` + ${SHARED_ROUNDS} with shared values mutated`} from seed ${FIRST_SEED}, ${tally.ok} ok, ${tally.drift} drift, ${tally.nothingHere} nothing-here, ${failures.length} failures; outcomes digest ${createHash('sha256').update(outcomes.join('\n')).digest('hex').slice(0, 16)}\n  types: ${cased.join(' ')}\n`,
    );
    if (!ONLY.length) assert.ok(tally.cases >= 30, `at least 30 data types read a JSON payload: ${tally.cases}`);
    assert.deepEqual(rejections.map(String), []);
    assert.deepEqual(failures, []);
  },
);
