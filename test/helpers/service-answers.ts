import type { DocumentedRoute } from '../../src/routes/context.ts';
import type { z } from '../../src/core/schema.ts';

/**
 * The published answer schema (RouteDoc.answer) of the route a path reaches, or null. Every GET
 * a test sends through startApp().get() is checked against it (test/helpers/app.ts), so a
 * service answer that drifts from its OpenAPI schema fails the test that sees it.
 */
export function answerSchemaFor(routes: readonly DocumentedRoute[], path: string): z.ZodType | null {
  const bare = path.split('?')[0] ?? path;
  for (const r of routes) {
    if (r.method !== 'GET' || !r.doc.answer) continue;
    const re = new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+').replace(/\./g, '\\.')}/?$`);
    if (re.test(bare)) return r.doc.answer.schema();
  }
  return null;
}

/** Throws when a 200 JSON answer of a service route does not match its published schema. */
export function checkServiceAnswer(routes: readonly DocumentedRoute[], path: string, status: number, json: unknown): void {
  if (status !== 200 || json === undefined) return;
  // A GeoJSON answer (?format=geojson) is the route's other form; its FeatureCollection schema is checked where it is asked for.
  if ((json as { type?: unknown } | null)?.type === 'FeatureCollection') return;
  const schema = answerSchemaFor(routes, path);
  if (!schema) return;
  const checked = schema.safeParse(json);
  if (!checked.success)
    throw new Error(`GET ${path}: the answer does not match its OpenAPI schema: ${JSON.stringify(checked.error.issues.slice(0, 5), null, 1)}`);
}
