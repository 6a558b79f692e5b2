import type { Measurement } from './measures.ts';
import { POLLUTANTS, HOURLY_SCOPE, type Pollutant } from './components.ts';
import type { StationAt } from './stations.ts';

export interface Reading {
  component: string;
  component_id: number;
  value: number;
  unit: string;
  scope: string;
  /** End of the averaging hour: the time the value describes. */
  time: string;
  period_start: string;
  station: { id: string; code: string; name: string; distance_km: number };
  distance_km: number;
}

export type MeasureFetcher = (station: StationAt, pollutant: Pollutant) => Promise<Measurement | null>;

/**
 * Per pollutant, the nearest station that has a value: traffic stations often lack O3 and
 * many stations lack SO2, so each component falls through to the next station on its own.
 */
export async function cascadeReadings(stations: readonly StationAt[], fetchMeasure: MeasureFetcher): Promise<Record<Pollutant['key'], Reading | null>> {
  const entries = await Promise.all(
    POLLUTANTS.map(async (p) => {
      for (const s of stations) {
        const m = await fetchMeasure(s, p);
        if (m) return [p.key, toReading(p, s, m)] as const;
      }
      return [p.key, null] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Pollutant['key'], Reading | null>;
}

function toReading(p: Pollutant, s: StationAt, m: Measurement): Reading {
  return {
    component: p.code,
    component_id: p.id,
    value: m.value,
    unit: p.unit,
    scope: HOURLY_SCOPE.code,
    time: m.end,
    period_start: m.start,
    station: { id: s.id, code: s.code, name: s.name, distance_km: s.distance_km },
    distance_km: s.distance_km,
  };
}
