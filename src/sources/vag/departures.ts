import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { LiveBoard, LiveDeparture, Mode } from '../../core/records/departures.ts';

/** `GET /abfahrten.json/vgn/{stop}`: German field names, times with their UTC offset. */
export interface VagAbfahrten {
  Metadata?: { Version?: string; Timestamp?: string };
  Haltestellenname?: string;
  VAGKennung?: string;
  VGNKennung?: number | string;
  Abfahrten?: {
    Linienname?: string;
    Haltepunkt?: string;
    Richtung?: string;
    Richtungstext?: string;
    AbfahrtszeitSoll?: string;
    AbfahrtszeitIst?: string;
    Produkt?: string;
    Fahrtnummer?: number;
    Betriebstag?: string;
    Prognose?: boolean;
    HaltesteigText?: string;
  }[];
}

const MODES: Record<string, Mode> = { tram: 'tram', bus: 'bus', ubahn: 'subway', sbahn: 'suburban', rbahn: 'rail', zug: 'rail' };
const modeOf = (p: string | undefined): Mode => MODES[(p ?? '').toLowerCase().replace(/[^a-z]/g, '')] ?? 'other';

function instant(v: string | undefined): Date | null {
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

export function parseVagDepartures(body: VagAbfahrten, requestedStop: string): LiveBoard {
  if (!body || !Array.isArray(body.Abfahrten)) throw new UpstreamError('parse', 'VAG answer without Abfahrten');
  const stop = { id: body.VGNKennung !== undefined ? String(body.VGNKennung) : requestedStop, name: body.Haltestellenname ?? null };
  const departures: LiveDeparture[] = body.Abfahrten.map((a) => {
    const planned = instant(a.AbfahrtszeitSoll);
    const expected = instant(a.AbfahrtszeitIst);
    return {
      line: a.Linienname ?? null,
      direction: a.Richtungstext ?? null,
      stop: { ...stop, point: a.Haltepunkt ?? null },
      planned_time: planned ? toBerlinIso(planned) : null,
      expected_time: expected ? toBerlinIso(expected) : null,
      delay_s: planned && expected ? Math.round((expected.getTime() - planned.getTime()) / 1000) : null,
      platform: a.HaltesteigText ?? null,
      mode: modeOf(a.Produkt),
      // The VAG feed lists no cancellation flag: unknown rather than false.
      cancelled: null,
      realtime: a.Prognose === true,
      trip_id: a.Fahrtnummer !== undefined ? String(a.Fahrtnummer) : null,
    };
  });
  const ts = instant(body.Metadata?.Timestamp);
  return { stop, departures, as_of: ts ? toBerlinIso(ts) : null };
}
