import { startDemo } from '/work/wt/h-formats/scripts/demo.ts';
import { examplePath } from '/work/wt/h-formats/src/core/data-type.ts';
process.env.RATE_LIMIT_ENABLED='false';
const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
const out = [];
for (const dt of demo.built.rt.catalog.all) { if (!dt.list) continue; const r = await fetch(demo.url + examplePath(dt)); const t = await r.text(); const j = JSON.parse(t); const d = j.data; const n = Array.isArray(d) ? d.length : typeof dt.list === 'string' ? d?.[dt.list]?.length : 0; out.push([n, t.length, dt.type, examplePath(dt)]); }
out.sort((a,b)=>b[0]-a[0]); console.log(out.slice(0,8));
await demo.close();
