import type { BikeCountStationRecord } from '../../core/records/mobility.ts';

/** One station as a city feed gives it, with its counts per calendar day (YYYY-MM-DD). */
export interface CountedStation {
  id: string;
  name: string | null;
  lat: number | null;
  lon: number | null;
  days: Map<string, number>;
}

export type Feed = { source: string; license: string };

const DAY_MS = 24 * 3600 * 1000;
const dayBefore = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/** Adds a count to a day (hourly feeds are summed; a repeated daily row is summed too, never dropped silently). */
export function addCount(days: Map<string, number>, date: string, count: number) {
  days.set(date, (days.get(date) ?? 0) + count);
}

/** The latest day and the seven days ending with it; a station without any day yields null. */
export function summariseStation(s: CountedStation, feed: Feed, resolution: 'hour' | 'day'): BikeCountStationRecord | null {
  const dates = [...s.days.keys()].sort();
  const latest = dates.at(-1);
  if (!latest) return null;
  const from = dayBefore(latest, 6);
  const week = dates.filter((d) => d >= from).map((d) => ({ date: d, count: s.days.get(d)! }));
  return {
    id: `${feed.source}:${s.id}`,
    name: s.name,
    lat: s.lat,
    lon: s.lon,
    latest_day: latest,
    latest_day_count: s.days.get(latest)!,
    last_7_days_total: week.reduce((sum, d) => sum + d.count, 0),
    days_counted: week.length,
    last_7_days: week,
    resolution,
    source: feed.source,
    license: feed.license,
  };
}
