import type { SourceDecl } from './types.ts';
import { BRIGHTSKY } from './brightsky/source.ts';

/** Every upstream the service knows. Order is the default order of GET /api/v1/sources. */
export const SOURCES: readonly SourceDecl[] = [
  BRIGHTSKY,
];
