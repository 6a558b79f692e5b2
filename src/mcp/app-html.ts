import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Catalog } from '../catalog/index.ts';
import { VERSION } from '../core/version.ts';
import { APP_VIEW_INFO, mapFacts, type AppView } from './apps.ts';

/**
 * The MCP Apps views as single HTML documents. Hosts render them in a sandboxed iframe whose
 * default Content Security Policy allows no network at all, so the script (the view code with the
 * ext-apps App class, bundled by esbuild) and its styles are inlined, and the catalog facts the
 * view needs travel inside the document. Built once per process and catalog, at the first read.
 */

/** A view larger than this is a build mistake (a dependency pulled in whole), not something to send. */
export const MAX_APP_HTML_BYTES = 1_500_000;

/**
 * The browser entry (TypeScript, bundled by esbuild; tsc leaves src/web alone): beside this module
 * when it runs from the sources, three levels up when it runs compiled from dist/src/mcp/.
 */
const ENTRIES = ['../web/mcp-app/main.ts', '../../../src/web/mcp-app/main.ts'].map((p) => new URL(p, import.meta.url));

let bundle: Promise<{ js: string; css: string }> | null = null;

async function build(): Promise<{ js: string; css: string }> {
  const entry = ENTRIES.find((u) => existsSync(u));
  if (!entry) throw new Error('the MCP Apps view source (src/web/mcp-app/main.ts) is missing from this installation');
  // Loaded here, not at start: only a process that serves a view pays for the bundler.
  const { build: esbuild } = await import('esbuild');
  const out = await esbuild({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    outdir: 'out',
    legalComments: 'none',
    logLevel: 'silent',
    // Inlined into a <script>: esbuild escapes `</script` in strings for this.
    supported: { 'inline-script': false },
  });
  const text = (ext: string) => out.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

/** JSON inside a <script> element: `<` escaped, so no text in it can end the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const documents = new WeakMap<Catalog, Map<AppView, Promise<string>>>();

async function render(catalog: Catalog, view: AppView): Promise<string> {
  const { js, css } = await (bundle ??= build().catch((err: unknown) => {
    bundle = null;
    throw err;
  }));
  const facts = { view, version: VERSION, map: mapFacts(catalog) };
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Stadtdaten: ${APP_VIEW_INFO[view].title}</title>`,
    `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`,
    '</head>',
    `<body data-view="${view}">`,
    '<main id="app" aria-live="polite"><p class="status">Waiting for the tool result…</p></main>',
    `<script type="application/json" id="stadtdaten-facts">${scriptJson(facts)}</script>`,
    `<script>${js}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_APP_HTML_BYTES) throw new Error(`the ${view} view is ${bytes} bytes, more than ${MAX_APP_HTML_BYTES}`);
  return html;
}

/** The HTML of one view, built at the first call and kept for the process. */
export function appHtml(catalog: Catalog, view: AppView): Promise<string> {
  let byView = documents.get(catalog);
  if (!byView) documents.set(catalog, (byView = new Map()));
  let doc = byView.get(view);
  if (!doc) {
    doc = render(catalog, view);
    // A failed build is tried again at the next read, not remembered.
    void doc.catch(() => byView.delete(view));
    byView.set(view, doc);
  }
  return doc;
}
