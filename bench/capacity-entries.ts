/**
 * `node bench/capacity-entries.ts`: the size of one cache entry per fetched data
 * type, measured as the bytes of its example answer (whole list, `limit=all`) from the demo,
 * which serves the recorded upstream payloads on loopback. Writes bench/capacity-entry-bytes.json,
 * which `npm run capacity-docs` multiplies by the cities each type covers (the Redis memory row
 * of the capacity table in docs/operations.md).
 */
import { writeFileSync } from 'node:fs';
import { startDemo } from '../scripts/demo.ts';
import { examplePath } from '../src/core/data-type.ts';

const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
const bytes: Record<string, number> = {};
const missing: string[] = [];
try {
  for (const dt of [...demo.built.rt.catalog.all].sort((a, b) => a.type.localeCompare(b.type))) {
    if (dt.cache === 'stored') continue;
    const path = examplePath(dt);
    const res = await fetch(demo.url + path + (dt.list ? `${path.includes('?') ? '&' : '?'}limit=all` : ''));
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status === 200) bytes[dt.type] = body.length;
    else missing.push(`${dt.type} (${res.status})`);
  }
} finally {
  await demo.close();
}
const out = { measured: new Date().toISOString().slice(0, 10), note: 'bytes of each fetched type’s example answer from the demo (fixtures)', bytes };
writeFileSync(new URL('./capacity-entry-bytes.json', import.meta.url), JSON.stringify(out, null, 2) + '\n');
console.log(`wrote bench/capacity-entry-bytes.json (${Object.keys(bytes).length} types)${missing.length ? `; not measured: ${missing.join(', ')}` : ''}`);
