import { buildSync } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What the app forks as a GTFS child (gtfs-child.ts): its modules bundled into one plain
 * JavaScript file by esbuild (the compiler tsx runs on), built once per app process. Without
 * tsx's module-loader thread the child is smaller, and peak RSS is what the poller is held to. Packages stay external and load from node_modules, so the bundle lives in
 * node_modules/.cache where Node resolves them. Should building or writing fail (a read-only
 * install), the child runs its TypeScript through tsx like every other process.
 */
const SOURCE = fileURLToPath(new URL('./gtfs-child.ts', import.meta.url));
export const DEFAULT_CACHE_DIR = fileURLToPath(new URL('../../node_modules/.cache/stadtdaten/', import.meta.url));

export interface ChildEntry {
  module: string;
  execArgv: string[];
  bundled: boolean;
}

export function buildChildBundle(cacheDir: string): ChildEntry {
  try {
    const out = buildSync({
      entryPoints: [SOURCE],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    mkdirSync(cacheDir, { recursive: true });
    const file = `${cacheDir.replace(/\/+$/, '')}/gtfs-child.mjs`;
    // Another instance on the same install may be writing it too: write aside, then rename.
    const tmp = `${file}.${process.pid}.tmp`;
    const [bundle] = out.outputFiles;
    if (!bundle) throw new Error('esbuild returned no output file');
    writeFileSync(tmp, bundle.contents);
    renameSync(tmp, file);
    return { module: file, execArgv: [], bundled: true };
  } catch {
    return { module: SOURCE, execArgv: ['--import', import.meta.resolve('tsx')], bundled: false };
  }
}

let entry: ChildEntry | null = null;

export function childEntry(): ChildEntry {
  return (entry ??= buildChildBundle(DEFAULT_CACHE_DIR));
}
