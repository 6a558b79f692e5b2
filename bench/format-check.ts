/**
 * `node --expose-gc bench/format-check.ts [type] [items]`: what checking a fetched answer against
 * its record schema costs (pipeline/format-drift.ts), next to what a fetch costs anyway
 * (normalising and serialising the record), for a list type blown up to many items. The items
 * are copies of the type's example answer (src/http/openapi-examples.json).
 */
import { CATALOG } from '../src/catalog/index.ts';
import { dataSchemaOf } from '../src/core/data-type.ts';
import { normalise } from '../src/core/normalise.ts';
import { checkedPart, CHECKED_ITEMS } from '../src/pipeline/format-drift.ts';
import EXAMPLES from '../src/http/openapi-examples.json' with { type: 'json' };

const type = process.argv[2] ?? 'live-charging';
const counts = process.argv[3] ? [Number(process.argv[3])] : [1_000, 10_000, 50_000];
const dt = CATALOG.byType.get(type);
if (!dt || !dt.list) throw new Error(`${type} is not a list type of the catalog`);
// The examples file holds each type's example `data`.
const example = (EXAMPLES as unknown as Record<string, { data: unknown }>)[type]?.data;
const key = dt.list === true ? null : dt.list;
const sample = (key ? (example as Record<string, unknown[]>)[key] : example) as unknown[];
/** The answer with `n` items: copies of the example's items (under the type's list member for a record). */
const answer = (n: number) => {
  const items = Array.from({ length: n }, (_, i) => structuredClone(sample[i % sample.length]));
  return key ? { ...(example as object), [key]: items } : items;
};

function ms(fn: () => unknown, rounds: number): number {
  for (let i = 0; i < 3; i++) fn();
  const t = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return (performance.now() - t) / rounds;
}

let t = performance.now();
const schema = dataSchemaOf(dt);
const buildMs = performance.now() - t;
console.log(`${type}: schema built in ${buildMs.toFixed(1)} ms (first fetch of the type only)`);

for (const n of counts) {
  const data = answer(n);
  const rounds = n >= 50_000 ? 5 : 20;
  const norm = ms(() => normalise(data), rounds);
  const json = ms(() => JSON.stringify(data), rounds);
  const check = ms(() => schema.safeParse(data), rounds);
  const asFetched = ms(() => schema.safeParse(checkedPart(dt, data)), rounds);
  const ok = schema.safeParse(data).success;
  console.log(
    `${String(n).padStart(6)} items: normalise ${norm.toFixed(1)} ms, serialise ${json.toFixed(1)} ms; schema check of every item ${check.toFixed(1)} ms ` +
      `(${((check * 1000) / n).toFixed(2)} µs per item), as a fetch checks it (at most ${CHECKED_ITEMS} items) ${asFetched.toFixed(1)} ms = ` +
      `${((asFetched / (norm + json)) * 100).toFixed(0)} % of normalise+serialise; valid: ${ok}`,
  );
}

// Every record schema built once, as a long-running process ends up after fetching every type
// (the canonical records stay, as after the first OpenAPI request; fetches keep 24 published ones).
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().heapUsed;
t = performance.now();
const all = CATALOG.all.map((d) => dataSchemaOf(d));
const allMs = performance.now() - t;
gc?.();
const heap = gc ? `heap +${((process.memoryUsage().heapUsed - before) / 1024 / 1024).toFixed(1)} MB for ${all.length} types` : 'heap: run with --expose-gc';
console.log(`all ${CATALOG.all.length} published schemas: built in ${allMs.toFixed(0)} ms; ${heap}`);
