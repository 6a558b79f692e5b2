import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { SmardResolution } from '../../core/records/power.ts';

/** `GET /{filter}/{region}/index_{resolution}.json`: start times (ms) of the published blocks. */
const IndexShape = z.looseObject({ timestamps: z.array(z.number()) });

/** `GET /{filter}/{region}/{filter}_{region}_{resolution}_{block}.json`: `[ms, value|null]` pairs. */
const BlockShape = z.looseObject({ series: z.array(z.tuple([z.number(), z.number().nullable()])) });

export const SLOT_MS: Record<SmardResolution, number> = { hour: 3_600_000, quarterhour: 900_000 };

/** Block start times, oldest first. */
export function parseIndex(body: unknown): number[] {
  return shaped(IndexShape, body, 'SMARD index').timestamps.sort((a, b) => a - b);
}

/** `[ms, value|null]` pairs of a block; null marks a slot not published yet. */
export function parseBlock(body: unknown): [number, number | null][] {
  return shaped(BlockShape, body, 'SMARD block').series.sort((a, b) => a[0] - b[0]);
}

export interface SlotValue {
  start: string;
  end: string;
  value: number;
}

/**
 * The latest published slot and the published slots of the 24 h up to it. Trailing nulls are
 * slots SMARD has not published yet; a null inside the window is a gap and is left out.
 */
export function latestWindow(points: [number, number | null][], resolution: SmardResolution): { latest: SlotValue | null; last24h: SlotValue[] } {
  const slot = SLOT_MS[resolution];
  const published = points.filter((p): p is [number, number] => p[1] !== null);
  const last = published.at(-1);
  if (!last) return { latest: null, last24h: [] };
  const from = last[0] - 24 * 3_600_000 + slot;
  const toSlot = ([t, v]: [number, number]): SlotValue => ({ start: toBerlinIso(t), end: toBerlinIso(t + slot), value: v });
  return { latest: toSlot(last), last24h: published.filter(([t]) => t >= from).map(toSlot) };
}
