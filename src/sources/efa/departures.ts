import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { LiveBoard, LiveDeparture, Mode } from '../../core/records/departures.ts';

/** `XML_DM_REQUEST?outputFormat=rapidJSON`: times are UTC (`Z`). */
export interface EfaLocation {
  id?: string;
  name?: string;
  disassembledName?: string;
  type?: string;
  isBest?: boolean;
  properties?: { stopId?: string; platform?: string; platformName?: string; plannedPlatformName?: string };
  parent?: EfaLocation;
}
export interface EfaStopEvent {
  location?: EfaLocation;
  departureTimePlanned?: string;
  departureTimeEstimated?: string;
  isRealtimeControlled?: boolean;
  isCancelled?: boolean;
  realtimeStatus?: string[];
  transportation?: {
    id?: string;
    name?: string;
    number?: string;
    disassembledName?: string;
    description?: string;
    product?: { class?: number; name?: string };
    destination?: { id?: string; name?: string };
  };
}
export interface EfaDmResponse {
  version?: string;
  locations?: EfaLocation[];
  stopEvents?: EfaStopEvent[];
  systemMessages?: { type?: string; module?: string; code?: number; text?: string }[];
}

/** EFA product classes (MOT codes). */
const MODES: Record<number, Mode> = {
  0: 'rail',
  1: 'suburban',
  2: 'subway',
  3: 'light_rail',
  4: 'tram',
  5: 'bus',
  6: 'bus',
  7: 'bus',
  8: 'cable',
  9: 'ferry',
  10: 'on_demand',
  11: 'other',
  13: 'rail',
  14: 'rail',
  15: 'rail',
  16: 'rail',
  17: 'bus',
  18: 'bus',
  19: 'bus',
};

function instant(v: string | undefined): Date | null {
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

/** `de:08111:6002:1:3` (a platform) belongs to stop `de:08111:6002`. */
function stopIdOf(id: string | undefined): string | null {
  if (!id) return null;
  const m = /^([a-z]{2}:\d+:[^:]+)/.exec(id);
  return m?.[1] ?? id;
}

export type EfaOutcome = { board: LiveBoard } | { noData: string };

/** `stopEvents` may be missing (stop not found, or ambiguous); when present it must be a list. */
const DmShape = z.looseObject({ stopEvents: z.array(z.unknown()).nullish() });

export function parseEfaDepartures(body: EfaDmResponse): EfaOutcome {
  if (!body || typeof body !== 'object') throw new UpstreamError('parse', 'EFA answer is not an object');
  shaped(DmShape, body, 'EFA departure monitor');
  if (!Array.isArray(body.stopEvents)) {
    // Without stopEvents EFA either did not find the stop or offers several candidates.
    const candidates = (body.locations ?? []).map((l) => l.name).filter(Boolean);
    if (body.locations || body.systemMessages) {
      return { noData: candidates.length > 1 ? `stop is ambiguous: ${candidates.slice(0, 5).join('; ')}` : 'stop not found by the EFA' };
    }
    throw new UpstreamError('parse', 'EFA answer without stopEvents, locations or systemMessages');
  }
  const asked = body.locations?.[0];
  const departures: LiveDeparture[] = body.stopEvents.map((e) => {
    const planned = instant(e.departureTimePlanned);
    const expected = instant(e.departureTimeEstimated);
    const t = e.transportation ?? {};
    const loc = e.location ?? {};
    const status = e.realtimeStatus ?? [];
    return {
      line: t.disassembledName ?? t.number ?? t.name ?? null,
      direction: t.destination?.name ?? null,
      stop: { id: loc.parent?.id ?? stopIdOf(loc.id), name: loc.parent?.name ?? loc.name ?? null, point: loc.id ?? null },
      planned_time: planned ? toBerlinIso(planned) : null,
      expected_time: expected ? toBerlinIso(expected) : null,
      delay_s: planned && expected ? Math.round((expected.getTime() - planned.getTime()) / 1000) : null,
      platform: loc.properties?.platform ?? loc.properties?.platformName ?? null,
      mode: MODES[t.product?.class ?? -1] ?? 'other',
      cancelled: e.isCancelled === true || status.includes('TRIP_CANCELLED') || status.includes('STOP_CANCELLED'),
      realtime: e.isRealtimeControlled === true || expected !== null,
      trip_id: t.id ?? null,
    };
  });
  const stop = asked ? { id: asked.id ?? null, name: asked.name ?? null } : { id: departures[0]?.stop.id ?? null, name: departures[0]?.stop.name ?? null };
  return { board: { stop, departures, as_of: null } };
}
