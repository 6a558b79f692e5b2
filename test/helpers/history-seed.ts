import { CATALOG } from '../../src/catalog/index.ts';
import { SqliteHistoryStore } from '../../src/history/sqlite-store.ts';
import type { PointIn } from '../../src/history/store.ts';

export const QUARTER_HOUR = 900_000;

/**
 * Writes `count` quarter-hourly points per recorded field of `type` in `city` from `from` into the
 * SQLite history file `file` (migrated first), as the recorder would have with `origin`. Values
 * follow a smooth daily curve, so means and extremes differ per bucket.
 */
export async function seedHistory(file: string, o: { type: string; city: string; from: number; count: number; origin?: string }): Promise<number> {
  const fields = CATALOG.byType.get(o.type)!.history!.fields;
  const store = new SqliteHistoryStore(file, { origin: o.origin ?? 'live' });
  await store.migrate();
  const points: PointIn[] = [];
  for (let i = 0; i < o.count; i++) {
    const t = o.from + i * QUARTER_HOUR;
    fields.forEach((f, j) =>
      points.push({
        type: o.type,
        city: o.city,
        field: f.name,
        unit: f.unit,
        t,
        v: Math.round((10 + j + 8 * Math.sin(i / 15)) * 10) / 10,
        source: 'seed',
        license: 'CC0',
        backfilled: false,
      }),
    );
  }
  const added = await store.insert(points);
  await store.close();
  return added;
}
