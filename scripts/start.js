#!/usr/bin/env node
// `npm start`: runs the compiled service (dist/). `npm ci` builds it already (the `prepare` script runs
// `node scripts/start.js build`), so the first start is quick; a build missing or older than any source
// file, tsconfig or the lockfile (a checkout during development) is rebuilt here first. Plain
// JavaScript on plain Node: no TypeScript in the production process. `node scripts/start.js stdio` runs the
// MCP stdio entry the same way.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const entry = process.argv[2] === 'stdio' ? 'stdio.js' : 'server.js';

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function stale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'].map((p) => join(root, p));
  return inputs.some((p) => existsSync(p) && newestMtime(p) > built);
}

/** The Node.js line the service needs (node:sqlite, the ESM loader hooks); older ones end here with one line, not a stack trace. */
export const MIN_NODE = 24;

export function requireNode(version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE) return;
  console.error(`stadtdaten: Node.js ${MIN_NODE} or newer is required; this is ${version}. Install Node.js ${MIN_NODE} (README, first lines) and start again.`);
  process.exit(1);
}

export function ensureBuilt(reason = 'first start or sources changed') {
  if (!stale()) return;
  console.error(`stadtdaten: compiling to dist/ (${reason}) ...`);
  // Type errors are the test suite's business (npm test); the build only emits. Its output goes to
  // stderr: on the MCP stdio entry, stdout carries only protocol messages.
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!existsSync(tsc)) {
    console.error('stadtdaten: dist/ is missing or stale and TypeScript is not installed; run npm ci (with dev dependencies) first.');
    process.exit(1);
  }
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck'], { stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    console.error('stadtdaten: the build failed (see above); run npm ci and try again.');
    process.exit(1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  requireNode();
  if (process.argv[2] === 'build') {
    ensureBuilt('npm ci / npm install');
  } else {
    ensureBuilt();
    await import(pathToFileURL(join(root, 'dist', 'src', entry)).href);
  }
}
