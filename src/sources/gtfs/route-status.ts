import type { RouteTrip } from './rt-index.ts';

/** Aggregates of the trips the last poll saw on one route; cancelled trips are not active. */
export interface RouteStatus {
  route_id: string;
  line: string | null;
  active_trips: number;
  cancelled_trips: number;
  avg_delay_s: number | null;
  max_delay_s: number | null;
  trips: { trip_id: string; delay_s: number | null; cancelled: boolean }[];
}

export function routeStatus(routeId: string, line: string | null, trips: RouteTrip[]): RouteStatus {
  const active = trips.filter((t) => t[2] !== 1);
  const delays = active.map((t) => t[1]).filter((d): d is number => d !== null);
  return {
    route_id: routeId,
    line,
    active_trips: active.length,
    cancelled_trips: trips.length - active.length,
    avg_delay_s: delays.length ? Math.round((delays.reduce((a, b) => a + b, 0) / delays.length) * 10) / 10 : null,
    max_delay_s: delays.length ? delays.reduce((a, b) => (b > a ? b : a)) : null,
    trips: trips.map(([trip_id, delay_s, c]) => ({ trip_id, delay_s, cancelled: c === 1 })),
  };
}
