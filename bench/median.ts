import { need } from './need.ts';

/** The median of a non-empty sample; with an even count, the mean of the two middle values. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const upper = need(s[mid], 'a sample for the median');
  return s.length % 2 === 1 ? upper : (need(s[mid - 1], 'a sample for the median') + upper) / 2;
}
