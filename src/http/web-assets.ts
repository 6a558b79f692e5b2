/**
 * The browser bundles (src/web/, TypeScript and CSS with their npm libraries) built by esbuild in
 * memory: never written to the source tree or anywhere else, built once per process on the first
 * ask (a process that serves no page never starts esbuild), and served under content-hashed names
 * so they can be cached as immutable. esbuild runs in its own process: building does not block the
 * event loop.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WebAsset {
  body: Buffer;
  type: string;
}

export interface WebEntry {
  /** Hashed file names (under the mount path) of the entry's script and style sheet. */
  js: string;
  css: string | null;
}

export interface WebBundle {
  /** Every output by its hashed file name. */
  files: Map<string, WebAsset>;
  /** The outputs of each entry by the entry's name. */
  entries: Map<string, WebEntry>;
}

/** The browser sources: `src/web` of the checkout this module runs from (as TypeScript on Node's type stripping or compiled in dist/). */
export function webSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above the web assets module');
    dir = up;
  }
  return join(dir, 'src', 'web');
}

const TYPES: Record<string, string> = { '.js': 'application/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

async function build(entries: Record<string, string>): Promise<WebBundle> {
  const { build } = await import('esbuild');
  const root = webSourceDir();
  const out = join(root, '.out');
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries,
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    outdir: '.out',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    // Leaflet's style sheet names a few small icons: inlined, so no further request is needed.
    loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
    metafile: true,
  });
  const files = new Map<string, WebAsset>();
  for (const f of result.outputFiles) {
    const name = relative(out, f.path);
    const ext = name.slice(name.lastIndexOf('.'));
    if (TYPES[ext]) files.set(name, { body: Buffer.from(f.contents), type: TYPES[ext] });
  }
  const byEntry = new Map<string, WebEntry>();
  for (const [file, o] of Object.entries(result.metafile.outputs)) {
    if (!o.entryPoint || !file.endsWith('.js')) continue;
    const name = Object.keys(entries).find((n) => entries[n] === o.entryPoint);
    if (!name) continue;
    const js = relative('.out', file);
    const css = o.cssBundle ? relative('.out', o.cssBundle) : null;
    byEntry.set(name, { js, css });
  }
  return { files, entries: byEntry };
}

const built = new Map<string, Promise<WebBundle>>();

/**
 * The bundle of these entries (name → file under src/web), built on the first call and kept for
 * the process. A failed build is tried again by the next call.
 */
export function webBundle(entries: Record<string, string>): Promise<WebBundle> {
  const key = JSON.stringify(entries);
  let b = built.get(key);
  if (!b) {
    b = build(entries);
    built.set(key, b);
    b.catch(() => built.delete(key));
  }
  return b;
}
