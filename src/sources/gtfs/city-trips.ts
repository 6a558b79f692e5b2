import type { Store } from '../../core/store.ts';
import { cityOfStop } from './city-stops.ts';
import { readTrip } from './rt-index.ts';
import type { StaticIndex } from './static-index.ts';

/**
 * The feed is nationwide and its ids name no city: a trip or route asked for under a city's path
 * belongs to that city only if it stops there, so no city shows another city's trips.
 */
export function stopsIn(slug: string, stops: readonly { stop_id: string | null; lat: number | null; lon: number | null }[]): boolean {
  return stops.some((s) => s.stop_id !== null && cityOfStop(s.stop_id, s.lat, s.lon) === slug);
}

/** Whether a trip stops in the city: by its scheduled stops, or by its realtime updates when the schedule lacks it. */
export async function tripStopsIn(slug: string, tripId: string, index: StaticIndex | null, store: Store): Promise<boolean> {
  const planned = index?.stopTimes(tripId) ?? [];
  if (planned.length) return stopsIn(slug, planned);
  const updates = (await readTrip(store, tripId))?.update.updates ?? [];
  return stopsIn(
    slug,
    updates.map((u) => {
      const stop = u.stop_id && index ? index.stop(u.stop_id) : null;
      return { stop_id: u.stop_id, lat: stop?.lat ?? null, lon: stop?.lon ?? null };
    }),
  );
}
