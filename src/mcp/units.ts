import { dataSchemaOf, type DataType } from '../core/data-type.ts';
import { jsonSchemaOf } from '../core/schema.ts';

const cache = new WeakMap<DataType, string[]>();

function collect(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) for (const n of node) collect(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'unit' && typeof v === 'string') out.add(v);
      else collect(v, out);
    }
  }
}

/** The units a data type's answer uses (the `unit` of its record fields), for the one-line tool descriptions. */
export function unitsOf(dt: DataType): string[] {
  let units = cache.get(dt);
  if (!units) {
    const found = new Set<string>();
    collect(jsonSchemaOf(dataSchemaOf(dt)), found);
    units = [...found].filter((u) => u !== '°');
    cache.set(dt, units);
  }
  return units;
}
