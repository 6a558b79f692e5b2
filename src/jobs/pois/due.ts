import type { City } from '../../cities/register.ts';
import type { Store } from '../../core/store.ts';
import type { PoiType } from '../../sources/overpass/poi-types.ts';
import { poisFailedRecently, readStoredPois } from '../../sources/overpass/stored.ts';
import type { PoiTarget } from './refresh.ts';

/**
 * City/type pairs whose stored value is missing or older than `maxAgeMs`, never computed ones
 * first, then the oldest; pairs that failed recently wait for their hold to pass.
 */
export async function dueTargets(store: Store, cities: readonly City[], types: readonly PoiType[], maxAgeMs: number, now = Date.now()): Promise<PoiTarget[]> {
  const due: { target: PoiTarget; computed: number }[] = [];
  for (const city of cities) {
    for (const type of types) {
      const stored = await readStoredPois(store, city.slug, type.id);
      const computed = stored ? Date.parse(stored.computed_at) : 0;
      if (stored && now - computed < maxAgeMs) continue;
      if (await poisFailedRecently(store, city.slug, type.id)) continue;
      due.push({ target: { city, type }, computed: Number.isNaN(computed) ? 0 : computed });
    }
  }
  return due.sort((a, b) => a.computed - b.computed).map((d) => d.target);
}
