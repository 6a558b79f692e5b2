/** Server-rendered HTML pages (landing, coverage): one layout, no external assets, no scripts from elsewhere. */

export const HTML_TYPE = 'text/html; charset=utf-8';

export function esc(s: string | number): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1f;line-height:1.45}
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 3rem}
a{color:#0b57d0}code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f4f4f6;padding:.7rem;overflow:auto;border-radius:4px}
nav a{margin-right:1rem}
.demo{background:#ffe08a;padding:.5rem 1.5rem;font-weight:600;border-bottom:1px solid #d4b000}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .45rem;text-align:left;vertical-align:top}
.ok{background:#d9f2dc}.partial{background:#fff3c4}.not_covered{background:#eee;color:#777}.disabled{background:#f9d5d3}.breaker_open{background:#f5a9a3}
.no_data{background:#e8eefc}.error{background:#f5a9a3}`;

/** Shown on top of every HTML page in demo mode (styled inline, so pages with their own CSS show it too). */
export const DEMO_BANNER =
  '<div class="demo" role="status" style="background:#ffe08a;padding:.5rem 1.5rem;font:600 1rem system-ui,sans-serif;border-bottom:1px solid #d4b000">Demo mode: every answer comes from recorded fixtures served by a local fake upstream, not from the live sources.</div>';

/** A complete page; `demo` puts a banner on top so nobody mistakes fixture data for live data. */
export function htmlPage(opts: { title: string; body: string; demo: boolean; head?: string }): string {
  const banner = opts.demo ? DEMO_BANNER : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(opts.title)}</title>
<style>${STYLE}</style>${opts.head ?? ''}</head>
<body>${banner}<main>
<nav><a href="/">Stadtdaten</a><a href="/docs">API docs</a><a href="/docs/data-types">Data types</a><a href="/coverage">Coverage</a><a href="/explore">Explorer</a><a href="/api/v1">API index</a></nav>
${opts.body}
</main></body></html>`;
}
