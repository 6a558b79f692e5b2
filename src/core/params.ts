import { ProblemError, type ProblemCode } from './problem.ts';

/**
 * A parameter table in the spirit of hafas-rest-api: one declaration drives parsing,
 * validation, OpenAPI parameters and MCP input schemas.
 */
export interface ParamDecl {
  name: string;
  in?: 'query' | 'path';
  type: 'string' | 'integer';
  description: string;
  /** A value that works, shown in OpenAPI and MCP (the data type's `example` wins where it names one). */
  example?: string | number;
  required?: boolean;
  enum?: readonly string[];
  pattern?: RegExp;
  /** Human-readable form of `pattern` for hints. */
  patternHint?: string;
  min?: number;
  /** Larger values are clamped without error. */
  clampMax?: number;
  default?: string | number;
  /** Problem code for an invalid value: 422 by default; route_not_found (404) for a path segment naming no resource. */
  invalid?: Extract<ProblemCode, 'invalid_request' | 'invalid_parameter' | 'route_not_found'>;
  /** Part of the cache key (default true). */
  keyed?: boolean;
}

export function parseParams(decls: readonly ParamDecl[], raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of decls) {
    const v = raw[d.name];
    const code = d.invalid ?? 'invalid_parameter';
    if (v === undefined || v === '') {
      if (d.required) {
        throw new ProblemError(code, `missing required parameter "${d.name}"`, hintFor(d), { parameter: d.name });
      }
      if (d.default !== undefined) out[d.name] = d.default;
      continue;
    }
    const s = Array.isArray(v) ? String(v[0]) : String(v);
    if (d.type === 'integer') {
      if (!/^-?\d+$/.test(s)) throw new ProblemError(code, `"${d.name}" must be an integer`, hintFor(d), { parameter: d.name });
      let n = Number(s);
      if (d.min !== undefined && n < d.min) throw new ProblemError(code, `"${d.name}" must be >= ${d.min}`, hintFor(d), { parameter: d.name });
      if (d.clampMax !== undefined && n > d.clampMax) n = d.clampMax;
      out[d.name] = n;
      continue;
    }
    if (d.enum && !d.enum.includes(s)) {
      throw new ProblemError(code, `unknown ${d.name}`, hintFor(d), { parameter: d.name, allowed: d.enum });
    }
    if (d.pattern && !d.pattern.test(s)) {
      throw new ProblemError(code, `"${d.name}" has an invalid format`, hintFor(d), { parameter: d.name });
    }
    out[d.name] = s;
  }
  return out;
}

function hintFor(d: ParamDecl): string {
  if (d.enum) return `${d.name} must be one of: ${d.enum.join(', ')}.`;
  if (d.type === 'integer')
    return `${d.name} must be an integer${d.min !== undefined ? ` >= ${d.min}` : ''}${d.clampMax !== undefined ? ` (values above ${d.clampMax} are clamped)` : ''}.`;
  if (d.patternHint) return `${d.name} must be ${d.patternHint}.`;
  return `${d.name}: ${d.description}`;
}

/** Stable cache-key fragment of the keyed parameters. */
export function paramKey(decls: readonly ParamDecl[], params: Record<string, unknown>): string {
  return decls
    .filter((d) => d.keyed !== false && params[d.name] !== undefined)
    .map((d) => `${d.name}=${String(params[d.name])}`)
    .join('&');
}

/** JSON Schema of one parameter: what OpenAPI and MCP input schemas show (the same rules parseParams applies). */
export function paramJsonSchema(d: ParamDecl, example?: string | number): Record<string, unknown> {
  const s: Record<string, unknown> = { type: d.type, description: d.description };
  if (d.enum) s.enum = [...d.enum];
  if (d.pattern) s.pattern = d.pattern.source;
  if (d.min !== undefined) s.minimum = d.min;
  if (d.clampMax !== undefined && !/clamp/i.test(d.description)) s.description = `${d.description} (values above ${d.clampMax} are clamped)`;
  if (d.default !== undefined) s.default = d.default;
  const ex = example ?? d.example;
  if (ex !== undefined) s.examples = [d.type === 'integer' ? Number(ex) : String(ex)];
  return s;
}
