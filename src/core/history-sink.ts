import type { City } from './city.ts';
import type { BackfillPoint, HistoryDecl } from './data-type.ts';

export type { BackfillPoint, HistoryBackfill, HistoryDecl, HistoryField } from './data-type.ts';

/** One fresh value the pipeline loaded for a recordable type. */
export interface FreshValue {
  type: string;
  history: HistoryDecl;
  /** The declared summary the fields are read from (HistoryDecl.summarise, else compare's). */
  summarise: ((data: unknown) => unknown) | null;
  city: City;
  asOf: string | null;
  fetchedAt: number;
  source: string;
  license: string;
  data: unknown;
}

/**
 * What the pipeline hands fresh values of recordable types to (the history recorder implements
 * it). `backfill` runs the type's declared backfill through the pipeline; the recorder calls it
 * once, when a series starts.
 */
export interface HistorySink {
  fresh(value: FreshValue, backfill: (() => Promise<BackfillPoint[]>) | null): void;
}

/** The number at a dotted path (`readings.no2.value`), or null when absent or not a finite number. */
export function numberAt(data: unknown, path: string): number | null {
  let v: unknown = data;
  for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
