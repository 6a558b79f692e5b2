import type { App } from '../app.ts';

/** What every route module receives. */
export type RouteContext = Pick<App, 'rt' | 'pipeline' | 'routes' | 'lane' | 'ready'>;

/** `/api/v1/cities/{slug}` -> `/api/v1/cities/:slug` */
export function toFastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** `/api/v1/cities/:slug` -> `/api/v1/cities/{slug}` */
export function toTemplate(fastifyPath: string): string {
  return fastifyPath.replace(/:(\w+)/g, '{$1}');
}

export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(values[k] ?? `{${k}}`));
}

export const JSON_TYPE = 'application/json; charset=utf-8';
