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
  // the document does not promise that nothing else is there (and saves its repetition).
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

/** A group of fields is factored out only when it has this many fields (and saves bytes). */
const GROUP_MIN_FIELDS = 3;

/**
 * Returns `schemas` with each group of fields that several records share (the same names with
 * the same subschemas, required alike: the table columns of the official statistics, a post
 * code with its deprecated twins) moved to a component of its own that those records include
 * with `allOf`. Greedy: the group that saves most first, taken from the fields two records have
 * in common, until no group saves anything. What a record accepts is unchanged; a client
 * generator gets one base type per group.
 */
export function shareFieldGroups(schemas: Record<string, Schema>): Record<string, Schema> {
  const records: Schema[] = [];
  const collect = (node: Schema) => {
    if (isSchema(node.properties) && !node.allOf && !node.$ref) records.push(node);
    mapChildren(node, [], (c) => (collect(c), c));
  };
  for (const root of Object.values(schemas)) collect(root);
  const roots = new Set(Object.values(schemas));

  /** A field as a record has it (name, subschema, required), numbered. */
  const ids = new Map<string, number>();
  const texts: string[] = [];
  const idOf = (text: string) => {
    let id = ids.get(text);
    if (id === undefined) ids.set(text, (id = texts.push(text) - 1));
    return id;
  };
  const fieldsOf = (r: Schema) =>
    Object.keys(r.properties as Schema)
      .map((n) => idOf(JSON.stringify([n, (r.properties as Schema)[n], Array.isArray(r.required) && r.required.includes(n)])))
      .sort((x, y) => x - y);
  const out = { ...schemas };
  const used = new Set(Object.keys(out));
  for (;;) {
    const fields = records.map(fieldsOf);
    const sets = fields.map((f) => new Set(f));
    const holders = new Map<number, number[]>();
    fields.forEach((fs, i) => fs.forEach((f) => holders.set(f, [...(holders.get(f) ?? []), i])));
    let best: { group: number[]; members: number[]; saved: number } | null = null;
    const tried = new Set<string>();
    for (let a = 0; a < records.length; a++) {
      // The records sharing at least GROUP_MIN_FIELDS fields with this one.
      const shared = new Map<number, number>();
      for (const f of fields[a]!) for (const b of holders.get(f)!) if (b > a) shared.set(b, (shared.get(b) ?? 0) + 1);
      for (const [b, n] of shared) {
        if (n < GROUP_MIN_FIELDS) continue;
        const group = fields[a]!.filter((f) => sets[b]!.has(f));
        const key = group.join(',');
        if (tried.has(key)) continue;
        tried.add(key);
        // Every record with all of the group and a field of its own besides; one inside a component may be all group
        // (a GeoJSON row that is its item but the geometry), a component keeps its fields (a named type stays one).
        const rarest = group.reduce((x, y) => (holders.get(x)!.length <= holders.get(y)!.length ? x : y));
        const members = holders
          .get(rarest)!
          .filter((i) => (fields[i]!.length > group.length || !roots.has(records[i]!)) && group.every((g) => sets[i]!.has(g)));
        const size = group.reduce((sum, f) => sum + texts[f]!.length, 30);
        const saved = (members.length - 1) * size - members.length * (REF_CHARS + 12);
        if (members.length >= 2 && saved > (best?.saved ?? 0)) best = { group, members, saved };
      }
    }
    if (!best) break;
    const parsed = best.group.map((f) => JSON.parse(texts[f]!) as [string, Schema, boolean]);
    const names = new Set(parsed.map(([n]) => n));
    const base: Schema = { type: 'object', properties: Object.fromEntries(parsed.map(([n, sub]) => [n, sub])) };
    const required = parsed.filter(([, , r]) => r).map(([n]) => n);
    if (required.length) base.required = required;
    let name = `${pascal(parsed[0]![0])}Fields`;
    for (let i = 2; used.has(name); i++) name = `${pascal(parsed[0]![0])}Fields${i}`;
    used.add(name);
    out[name] = base;
    for (const i of best.members) {
      const node = records[i]!;
      const props = node.properties as Schema;
      for (const n of names) delete props[n];
      if (Array.isArray(node.required)) {
        node.required = node.required.filter((n) => !names.has(n as string));
        if ((node.required as unknown[]).length === 0) delete node.required;
      }
      node.allOf = [...((node.allOf as unknown[]) ?? []), { $ref: `#/components/schemas/${name}` }];
    }
  }
  for (const r of records) {
    // A record that is a group and nothing else keeps only its reference to it.
    if (Object.keys(r.properties as Schema).length === 0) delete r.properties;
    if (r.allOf) keepNull(r);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A nullable record that includes a field group, written as "the record or null": `allOf`
 * applies whatever the type, so `{type: [object, null], allOf: [group]}` would refuse null
 * (the group is an object), and generated types would read `(R | null) & Group`, never null.
 */
function keepNull(node: Schema): void {
  const types = node.type;
  if (!Array.isArray(types) || !types.includes('null')) return;
  const { description, ...record } = node;
  for (const k of Object.keys(node)) delete node[k];
  const rest = types.filter((t) => t !== 'null');
  record.type = rest.length === 1 ? rest[0] : rest;
  node.anyOf = [record, { type: 'null' }];
  if (description !== undefined) node.description = description;
}

/**
 * Moves every inline parameter that several operations declare alike (a sort order, a station's
 * EVA number) to `components.parameters`, named after it (`OrderQuery`), and refers to it there.
 * Returns the parameters, sorted by name.
 */
export function shareParameters(
  paths: Record<string, Record<string, { parameters?: unknown[] }>>,
  components: Record<string, unknown>,
): Record<string, unknown> {
  const ops = Object.values(paths).flatMap((p) => Object.values(p));
  const uses = new Map<string, number>();
  for (const op of ops) for (const p of op.parameters ?? []) if (isSchema(p) && !p.$ref) uses.set(JSON.stringify(p), (uses.get(JSON.stringify(p)) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const [text, n] of uses) {
    if (n < 2) continue;
    const p = JSON.parse(text) as { name: string; in: string };
    let name = pascal(`${p.name} ${p.in}`);
    for (let i = 2; name in components; i++) name = pascal(`${p.name} ${p.in} ${i}`);
    components[name] = p;
    names.set(text, name);
  }
  for (const op of ops)
    op.parameters = op.parameters?.map((p) => {
      const name = isSchema(p) && !p.$ref ? names.get(JSON.stringify(p)) : undefined;
      return name ? { $ref: `#/components/parameters/${name}` } : p;
    });
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
}
