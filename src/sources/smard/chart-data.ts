import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { SmardResolution } from '../../core/records/power.ts';

/** `GET /{filter}/{region}/index_{resolution}.json`: start times (ms) of the published blocks. */
export interface SmardIndex {
  timestamps?: unknown;
}

/** `GET /{filter}/{region}/{filter}_{region}_{resolution}_{block}.json`. */
export interface SmardBlock {
  meta_data?: { version?: number; created?: number };
  series?: unknown;
}

export const SLOT_MS: Record<SmardResolution, number> = { hour: 3_600_000, quarterhour: 900_000 };

/** Block start times, oldest first. */
export function parseIndex(body: SmardIndex): number[] {
  if (!Array.isArray(body?.timestamps)) throw new UpstreamError('parse', 'SMARD index without a timestamps array');
  return body.timestamps.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)).sort((a, b) => a - b);
}

/** `[ms, value|null]` pairs of a block; null marks a slot not published yet. */
export function parseBlock(body: SmardBlock): [number, number | null][] {
  if (!Array.isArray(body?.series)) throw new UpstreamError('parse', 'SMARD block without a series array');
  const out: [number, number | null][] = [];
  for (const p of body.series as unknown[]) {
    if (!Array.isArray(p) || typeof p[0] !== 'number') continue;
    out.push([p[0], typeof p[1] === 'number' && Number.isFinite(p[1]) ? p[1] : null]);
  }
  return out.sort((a, b) => a[0] - b[0]);
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
