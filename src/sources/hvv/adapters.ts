import type { Adapter } from '../../core/data-type.ts';
import type { LiveBoardRecord } from '../../core/records/departures.ts';
import { quotedInput } from '../../core/problem.ts';
import { boardResult } from '../live-board.ts';
import { gtiCall } from './gti.ts';
import { gtiNow, parseGtiDepartures, type GtiCheckName, type GtiDepartureList } from './departures.ts';

export const HVV_DEFAULT_STATION = 'Hamburg Hauptbahnhof';

/** GTI `departureList` of a station by id, or by name resolved with `checkName` first. */
export const hvvDepartures: Adapter<LiveBoardRecord> = async ({ http, params, now }) => {
  const asked = (params.stop as string | undefined) ?? HVV_DEFAULT_STATION;
  let station: { id: string; name: string | null };
  if (/^Master:\d+$/.test(asked)) {
    station = { id: asked, name: null };
  } else {
    const found = await gtiCall<GtiCheckName>(http, 'checkName', { theName: { name: asked, type: 'STATION' }, maxList: 1 });
    const best = found.results?.find((r) => r.id);
    if (!best?.id) return { data: null, status: 'no_data', meta: { reason: `no HVV station named${quotedInput(asked)}` } };
    station = { id: best.id, name: best.combinedName ?? best.name ?? null };
  }
  const body = await gtiCall<GtiDepartureList>(http, 'departureList', {
    station: { id: station.id, ...(station.name ? { name: station.name } : {}), type: 'STATION' },
    time: gtiNow(now),
    maxList: 40,
    maxTimeOffset: 120,
    useRealtime: true,
  });
  return boardResult(parseGtiDepartures(body, station));
};
