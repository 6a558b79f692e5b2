import type { DataType } from '../../src/core/data-type.ts';
import type { SourceDecl } from '../../src/core/source.ts';

/**
 * The type with every listed source replaced through `swap` (same roles, adapters, cache and
 * cities): for a server whose sources differ from the declared ones, e.g. tighter breakers in a
 * test or a reliability run.
 */
export function withSources(dt: DataType, swap: (src: SourceDecl) => SourceDecl): DataType {
  return { ...dt, sources: dt.sources.map((s) => ({ ...s, source: swap(s.source) })) };
}
