import type { Catalog } from '../catalog/index.ts';
import { VERSION } from '../core/version.ts';
import { webBundle } from '../http/web-assets.ts';
import { APP_VIEW_INFO, mapFacts, type AppView, type ViewFacts } from './apps.ts';

/**
 * The MCP Apps views as single HTML documents. Hosts render them in a sandboxed iframe whose
 * default Content Security Policy allows no network at all, so the script (the view code with the
 * explorer's components and the ext-apps App class, bundled by esbuild) and its styles are
 * inlined, and the catalog facts the view needs travel inside the document. Built once per
 * process and catalog, at the first read.
 */

/** A view larger than this is a build mistake (a dependency pulled in whole), not something to send. */
export const MAX_APP_HTML_BYTES = 1_500_000;

/** The view's entry under src/web (bundled with the explorer's components by http/web-assets.ts). */
const ENTRY = { 'mcp-app': 'mcp-app/main.ts' };

async function bundle(): Promise<{ js: string; css: string }> {
  const built = await webBundle(ENTRY);
  const entry = built.entries.get('mcp-app');
  const text = (name: string | null | undefined) => (name ? (built.files.get(name)?.body.toString('utf8') ?? '') : '');
  if (!entry) throw new Error('the MCP Apps view was not bundled');
  // Inlined: no text in them may end their element (`<\/` means `</` in every JS literal).
  return { js: text(entry.js).replace(/<\/(script)/gi, '<\\/$1'), css: text(entry.css).replace(/<\/(style)/gi, '<\\/$1') };
}

/** JSON inside a <script> element: `<` escaped, so no text in it can end the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const documents = new WeakMap<Catalog, Map<AppView, Promise<string>>>();

async function render(catalog: Catalog, view: AppView): Promise<string> {
  const { js, css } = await bundle();
  const facts: ViewFacts = { view, version: VERSION, map: mapFacts(catalog) };
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Stadtdaten: ${APP_VIEW_INFO[view].title}</title>`,
    `<style>${css}</style>`,
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
