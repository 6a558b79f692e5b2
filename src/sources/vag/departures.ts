import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { LiveBoard, LiveDeparture, Mode } from '../../core/records/departures.ts';

const optText = z.string().nullish();

/**
 * `GET /abfahrten.json/vgn/{stop}`: German member names, times with their UTC offset. A departure is one with its
 * planned time; the rest of it may be absent.
 */
const AbfahrtenShape = z.looseObject({
  Metadata: z.looseObject({ Timestamp: optText }).nullish(),
  Haltestellenname: optText,
  VGNKennung: z.union([z.number(), z.string()]).nullish(),
  Abfahrten: z.array(
    z.looseObject({
      Linienname: optText,
      Haltepunkt: optText,
      Richtungstext: optText,
      AbfahrtszeitSoll: z.string(),
      AbfahrtszeitIst: optText,
      Produkt: optText,
      Fahrtnummer: z.union([z.number(), z.string()]).nullish(),
      Prognose: z.boolean().nullish(),
      HaltesteigText: optText,
    }),
  ),
});

const MODES: Record<string, Mode> = { tram: 'tram', bus: 'bus', ubahn: 'subway', sbahn: 'suburban', rbahn: 'rail', zug: 'rail' };
const modeOf = (p: string | null | undefined): Mode => MODES[(p ?? '').toLowerCase().replace(/[^a-z]/g, '')] ?? 'other';

function instant(v: string | null | undefined): Date | null {
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t);
}

export function parseVagDepartures(answer: unknown, requestedStop: string): LiveBoard {
  const body = shaped(AbfahrtenShape, answer, 'VAG Abfahrten');
  const stop = { id: body.VGNKennung != null ? String(body.VGNKennung) : requestedStop, name: body.Haltestellenname ?? null };
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
      trip_id: a.Fahrtnummer != null ? String(a.Fahrtnummer) : null,
    };
  });
  const ts = instant(body.Metadata?.Timestamp);
  return { stop, departures, as_of: ts ? toBerlinIso(ts) : null };
}
