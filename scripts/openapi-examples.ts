/**
 * `npm run openapi-examples`: the example answer of every data type's OpenAPI operation, made
 * by running the service on the fixtures (real upstream formats on loopback) and asking each
 * type's declared example request. Lists are cut to three items to keep the document small.
 * Writes src/http/openapi-examples.json; the contract test checks each example against its schema.
 */
import { writeFileSync } from 'node:fs';
import { startDemo } from './demo.ts';
import { examplePath } from '../src/core/data-type.ts';

const LIST_ITEMS = 3;

function trim(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, LIST_ITEMS).map(trim);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x)]));
  return v;
}

const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
const out: Record<string, unknown> = {};
const failed: string[] = [];
try {
  for (const dt of [...demo.built.rt.catalog.all].sort((a, b) => a.type.localeCompare(b.type))) {
    const res = await fetch(demo.url + examplePath(dt));
    const body = (await res.json()) as { meta?: { source_status?: string } };
    if (res.status !== 200 || body.meta?.source_status !== 'ok') failed.push(`${dt.type} (${res.status} ${body.meta?.source_status ?? ''})`);
    out[dt.type] = trim(body);
  }
} finally {
  await demo.close();
}
// One line per data type: a small diff when one example changes, no thousands of lines of indentation.
const lines = Object.entries(out).map(([type, answer]) => `${JSON.stringify(type)}: ${JSON.stringify(answer)}`);
writeFileSync(new URL('../src/http/openapi-examples.json', import.meta.url), `{\n${lines.join(',\n')}\n}\n`);
console.log(`wrote src/http/openapi-examples.json (${Object.keys(out).length} data types)`);
if (failed.length) {
  console.error(`not ok on their example: ${failed.join(', ')}`);
  process.exitCode = 1;
}
