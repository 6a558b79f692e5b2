import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const config = join(root, '.dependency-cruiser.cjs');

function cruise(cwd: string) {
  return spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' });
}

/** A throw-away tree with one import per file, run through the project's own layer rules. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true } }));
  return dir;
}

test('layers: the source tree has no back-edge and no cycle (dependency-cruiser, also part of npm run lint)', () => {
  const r = cruise(root);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('layers: a deliberate back-edge (a source importing the pipeline) fails the check', () => {
  const dir = tree({
    'src/pipeline/run.ts': 'export const run = 1;\n',
    'src/sources/x/adapters.ts': "import { run } from '../../pipeline/run.ts';\nexport const a = run;\n",
  });
  const r = cruise(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /layer-sources/);
});

test('layers: core imports no layer, type-only imports included', () => {
  const dir = tree({
    'src/routes/context.ts': 'export interface RouteContext { a: 1 }\n',
    'src/core/data-type.ts': "import type { RouteContext } from '../routes/context.ts';\nexport type X = RouteContext;\n",
  });
  const r = cruise(dir);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /base-imports-nothing-above/);
});
