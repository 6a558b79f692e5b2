/** Where the weekly precompute leaves each city's stations (read by the `charging` data type). */
export const chargingStoreKey = (slug: string) => `precomputed:charging:${slug}`;
export const chargingMetaKey = 'precomputed:charging:_meta';
/** Kept well past the weekly refresh so a failed month never empties the route. */
export const CHARGING_TTL_MS = 60 * 24 * 3600 * 1000;
