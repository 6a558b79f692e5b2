/**
 * The attack suite: `npm run attack [probe ...]`. Runs every probe of bench/attack/probes/ (each a
 * module exporting `probe: Probe`, see row.ts), found when it runs, one after another; names on the
 * command line run only those probes. Prints one Markdown table of all their rows and writes the
 * rows as JSON to a temp file, whose path it prints. A probe that throws gives one row saying so,
 * and the others still run. Not part of `npm test`: the probes take minutes.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AttackRow, Probe } from './row.ts';

const DIR = fileURLToPath(new URL('./probes/', import.meta.url));
const all = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'))
  .sort();
const asked = process.argv.slice(2);
const unknown = asked.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`attack: no probe named ${unknown.join(', ')}; there are: ${all.join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? all.filter((n) => asked.includes(n)) : all;

const rows: AttackRow[] = [];
for (const name of names) {
  const started = performance.now();
  console.error(`attack: ${name} ...`);
  try {
    const mod = (await import(pathToFileURL(join(DIR, `${name}.ts`)).href)) as { probe?: Probe };
    if (typeof mod.probe !== 'function') throw new Error('exports no probe');
    rows.push(...(await mod.probe()));
  } catch (err) {
    rows.push({ probe: name, measure: 'probe run', value: String((err as Error).message ?? err).slice(0, 200), verdict: 'failed to run' });
  }
  console.error(`attack: ${name} done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
console.log('| Probe | Measure | Value | Verdict |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${cell(r.probe)} | ${cell(r.measure)} | ${cell(r.value)} | ${cell(r.verdict)} |`);
const file = join(mkdtempSync(join(tmpdir(), 'stadtdaten-attack-')), 'rows.json');
writeFileSync(file, JSON.stringify(rows, null, 2));
console.log(`\nrows as JSON: ${file}`);
// Probes stop what they start; a keep-alive agent or a stray timer must not hold the suite open.
process.exit(0);
