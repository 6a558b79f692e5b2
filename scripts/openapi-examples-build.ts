/**
 * The example answer of every data type's OpenAPI operation, made by running the service on the
 * fixtures (real upstream formats on loopback) and asking each type's declared example request:
 * the whole envelope as the demo answered it, its lists cut to their first item. The document
 * refers to each by URL (/docs/examples/<type>.json) instead of embedding it, which keeps it small.
 * The caller stands the clock still at EXAMPLES_CLOCK first (node:test's mock timers, Date only),
 * so that times the fake upstreams build around "now" (live feeds, shifted recordings) come out
 * the same on every run: `npm run openapi-examples` writes the file, test/openapi-examples.test.ts
 * checks that the committed one is what the service answers today.
 */

/** The instant the examples are made at (a weekday morning, when the recorded feeds have departures). */
export const EXAMPLES_CLOCK = Date.parse('2026-06-03T08:00:00Z');
export const EXAMPLES_FILE = new URL('../src/http/openapi-examples.json', import.meta.url);
const LIST_ITEMS = 1;

function trim(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, LIST_ITEMS).map(trim);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, trim(x)]));
  return v;
}

/** The text of src/http/openapi-examples.json, and the types whose example request did not answer 200 `ok`. */
export async function buildExamples(): Promise<{ text: string; types: number; failed: string[] }> {
  // Loaded here, after the caller has stopped the clock.
  const { startDemo } = await import('./demo.ts');
  const { examplePath } = await import('../src/core/data-type.ts');
  const demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  const out: Record<string, unknown> = {};
  const failed: string[] = [];
  try {
    for (const dt of [...demo.built.rt.catalog.all].sort((a, b) => a.type.localeCompare(b.type))) {
      const res = await fetch(demo.url + examplePath(dt));
      const body = (await res.json()) as { data?: unknown; meta?: { source_status?: string }; attribution?: unknown };
      if (res.status !== 200 || body.meta?.source_status !== 'ok') failed.push(`${dt.type} (${res.status} ${body.meta?.source_status ?? ''})`);
      out[dt.type] = { data: trim(body.data ?? null), meta: body.meta, attribution: body.attribution };
    }
  } finally {
    await demo.close();
  }
  // One line per data type: a small diff when one example changes, no thousands of lines of indentation.
  const lines = Object.entries(out).map(([type, data]) => `${JSON.stringify(type)}: ${JSON.stringify(data)}`);
  return { text: `{\n${lines.join(',\n')}\n}\n`, types: lines.length, failed };
}
