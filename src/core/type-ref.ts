/**
 * A typed reference to a data type, declared once next to its record schema (core/records) and
 * used both as the catalog entry's `type` and by the readings that look it up.
 */
export interface TypeRef<T> {
  readonly type: string;
  /** Carries the record type for the compiler only; never set. */
  readonly recordType?: T;
}

export function typeRef<T>(type: string): TypeRef<T> {
  return { type };
}
