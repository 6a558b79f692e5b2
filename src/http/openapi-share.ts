/**
 * Makes the OpenAPI document's schemas compact without changing what they accept: the JSON
 * Schemas of the data types repeat the same records (a station, a departure, an address) many
 * times, and zod spells every timestamp with a 300-character regular expression. Repeated
 * subschemas become named components (`$ref`), so a client generator also gets one type per
 * shared record instead of a copy per use.
 */

type Schema = Record<string, unknown>;

/** What a `$ref` to a component costs in place of a subschema, about (as JSON). */
const REF_CHARS = 45;
/** Subschemas shorter than this stay inline. */
const MIN_CHARS = 60;
/** Large subschemas are shared whenever they repeat, even where little is saved: a record is one named type. */
const RECORD_CHARS = 200;

/** Whether sharing a subschema of `chars` characters used `uses` times makes the document smaller (or it is a record). */
const worthSharing = (chars: number, uses: number) => uses >= 2 && (chars >= RECORD_CHARS || uses * (chars - REF_CHARS) > chars + REF_CHARS);

const SAFE = Number.MAX_SAFE_INTEGER;
/** Formats zod also spells out as a `pattern`; the format says the same in a few characters. */
const FORMATS_WITH_PATTERN = new Set(['date-time', 'date', 'time']);

const isSchema = (x: unknown): x is Schema => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The places in a JSON Schema that hold subschemas (keyword -> one, a list, or a map of them). */
const ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames'] as const;
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const MAP = ['properties', '$defs', 'patternProperties'] as const;

/** Where a subschema sits, as name parts: `['WeatherData', 'Station']`; a shared one is named after its last parts. */
type Path = readonly string[];

/** Calls `f` on every direct subschema, with its path, and stores what `f` returns. */
function mapChildren(node: Schema, path: Path, f: (child: Schema, path: Path) => Schema): void {
  for (const k of ONE) {
    const c = node[k];
    if (isSchema(c)) node[k] = f(c, k === 'items' ? [...path.slice(0, -1), `${path.at(-1) ?? ''}Item`] : path);
  }
  for (const k of LIST) {
    const c = node[k];
    if (Array.isArray(c)) node[k] = c.map((x) => (isSchema(x) ? f(x, path) : x));
  }
  for (const k of MAP) {
    const c = node[k];
    if (isSchema(c)) for (const [name, x] of Object.entries(c)) if (isSchema(x)) c[name] = f(x, [...path, pascal(name)]);
  }
}

/**
 * Drops what zod adds beyond the meaning (the regex of ISO formats, the safe-integer bounds of
 * `int()`, `additionalProperties: false`) and writes "X or null" as `type: [X, 'null']` instead of `anyOf` of two schemas.
 */
export function tidy(node: Schema): Schema {
  if (typeof node.format === 'string' && FORMATS_WITH_PATTERN.has(node.format)) delete node.pattern;
  if (node.type === 'integer') {
    if (node.minimum === -SAFE) delete node.minimum;
    if (node.maximum === SAFE) delete node.maximum;
  }
  // Records may gain members in later versions (docs/contract.md): clients must tolerate them, so
  // the document does not promise that nothing else is there (and saves ~20 KB of repetition).
  if (node.additionalProperties === false) delete node.additionalProperties;
  mapChildren(node, [], (c) => tidy(c));
  const merged = nullableOf(node);
  return merged ?? node;
}

/** `{anyOf: [{type: X, ...}, {type: 'null'}], ...}` as `{type: [X, 'null'], ...}`, where X is one plain type. */
function nullableOf(node: Schema): Schema | null {
  const anyOf = node.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return null;
  const isNull = (s: unknown) => isSchema(s) && s.type === 'null' && Object.keys(s).length === 1;
  const other = anyOf.find((s) => !isNull(s));
  if (!isSchema(other) || !anyOf.some(isNull) || typeof other.type !== 'string' || other.type === 'null') return null;
  const { anyOf: _a, ...outer } = node;
  if (Object.keys(outer).some((k) => k in other)) return null;
  const merged: Schema = { ...other, ...outer, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...(other.enum as unknown[]), null];
  if ('const' in other) return null;
  return merged;
}

function pascal(s: string): string {
  const p = s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return /^[A-Za-z]/.test(p) ? p : `S${p}`;
}

function keyless(node: Schema): Schema {
  const { description: _d, ...def } = structuredClone(node);
  return def;
}

function refTo(name: string, description?: unknown): Schema {
  const ref: Schema = { $ref: `#/components/schemas/${name}` };
  if (typeof description === 'string') ref.description = description;
  return ref;
}

/** The identity of a subschema for sharing: everything but its use-site description. */
function keyOf(node: Schema): string {
  const { description: _d, ...rest } = node;
  return JSON.stringify(rest);
}

/**
 * Returns `schemas` with every subschema that occurs twice or more (or equals one of the given
 * components) replaced by a `$ref` to a component of its own, named after the property it
 * first appears under. The use site keeps its description next to the `$ref` (OpenAPI 3.1).
 */
export function shareRepeated(schemas: Record<string, Schema>): Record<string, Schema> {
  const counts = new Map<string, number>();
  const add = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  const count = (node: Schema): Schema => {
    const k = keyOf(node);
    if (k.length >= MIN_CHARS) add(k);
    const exact = JSON.stringify(node);
    if (exact !== k && exact.length >= MIN_CHARS) add(exact);
    mapChildren(node, [], count);
    return node;
  };
  for (const root of Object.values(schemas)) mapChildren(root, [], count);

  const out: Record<string, Schema> = {};
  const names = new Map<string, string>();
  for (const [name, root] of Object.entries(schemas)) names.set(keyOf(root), name);
  const used = new Set(Object.keys(schemas));
  /** The property's name, else qualified by its parents' (`Station`, then `WeatherDataStation`), else numbered. */
  const unique = (path: Path) => {
    const parts = path.length ? path : ['Shared'];
    let n = '';
    for (let i = 1; i <= parts.length && (!n || used.has(n)); i++) n = parts.slice(-i).join('');
    for (let i = 2; used.has(n); i++) n = `${parts.join('')}${i}`;
    used.add(n);
    return n;
  };

  /** The component a subschema becomes (made on first use), or null when it stays inline. */
  const share = (key: string, path: Path, def: () => Schema): string | null => {
    let name = names.get(key);
    if (!name && worthSharing(key.length, counts.get(key) ?? 0)) {
      name = unique(path);
      names.set(key, name);
      const d = def();
      out[name] = d;
      mapChildren(d, [name], visit);
    }
    return name ?? null;
  };
  const visit = (node: Schema, path: Path): Schema => {
    const k = keyOf(node);
    // Records are shared by their shape (each use keeps its own description); small schemas only where identical.
    const structural = k.length >= RECORD_CHARS ? share(k, path, () => keyless(node)) : null;
    if (structural) return refTo(structural, node.description);
    const exact = JSON.stringify(node);
    const small = exact.length >= MIN_CHARS ? share(exact, path, () => structuredClone(node)) : null;
    if (small) return refTo(small);
    mapChildren(node, path, visit);
    return node;
  };
  for (const [name, root] of Object.entries(schemas)) {
    out[name] = root;
    mapChildren(root, [name], visit);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
