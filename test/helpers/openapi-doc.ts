import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The served OpenAPI document as a validating client reads it: its operations, the documented
 * request of each, and ajv (JSON Schema 2020-12, formats checked) over its component schemas,
 * resolving `$ref`s inside the document exactly as served.
 */

export type Param = { $ref?: string; name?: string; in?: string; required?: boolean; example?: unknown; schema?: { enum?: unknown[] } };
export type Media = { schema?: { $ref?: string } & Record<string, unknown> };
export type Response = { $ref?: string; description?: string; content?: Record<string, Media> };
export type Op = { operationId: string; summary: string; description: string; parameters?: Param[]; responses: Record<string, Response> };
export type Doc = {
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, Record<string, unknown>>; parameters: Record<string, Param>; responses: Record<string, Response> };
};

const ID = 'https://stadtdaten.invalid/openapi.json';
const pointer = (parts: string[]) => '#/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented request of an operation: path parameters and required query parameters from their examples. */
export function exampleRequest(doc: Doc, path: string, op: Op): string {
  const params = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').at(-1)!]! : p));
  const value = (p: Param) => String(p.example ?? p.schema?.enum?.[0] ?? '');
  let url = path;
  const query = new URLSearchParams();
  for (const p of params) {
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value(p)));
    else if (p.in === 'query' && p.required) query.set(p.name!, value(p));
  }
  return query.size ? `${url}?${query}` : url;
}

/** Where the schema of an operation's answer sits in the document (following a shared response's `$ref`), or null when undocumented. */
export function answerPointer(doc: Doc, path: string, method: string, status: number, mediaType: string): string | null {
  const op = doc.paths[path]?.[method];
  const key = op?.responses[String(status)] ? String(status) : null;
  if (!op || !key) return null;
  const res = op.responses[key]!;
  const at = res.$ref ? ['components', 'responses', res.$ref.split('/').at(-1)!] : ['paths', path, method, 'responses', key];
  const body = res.$ref ? doc.components.responses[at[2]!] : res;
  return body?.content?.[mediaType]?.schema ? pointer([...at, 'content', mediaType, 'schema']) : null;
}

/** ajv over the document: `validator(pointer)` checks a value against the schema at that place of the document. */
export function documentValidator(doc: Doc): (at: string) => ValidateFunction {
  // Strict: a keyword ajv does not know is an error, except the document's own annotations.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addVocabulary(['unit', 'example', 'openapi', 'info', 'servers', 'tags', 'paths', 'components']);
  ajv.addSchema({ ...doc, $id: ID } as object);
  const cache = new Map<string, ValidateFunction>();
  return (at) => {
    let v = cache.get(at);
    if (!v) cache.set(at, (v = ajv.compile({ $ref: ID + at })));
    return v;
  };
}

/** ajv's errors of a failed validation, one short line each. */
export function errorsOf(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 4)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (${e.schemaPath})`)
    .join('; ');
}
