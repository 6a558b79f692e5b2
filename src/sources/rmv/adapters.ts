import type { Adapter } from '../../core/data-type.ts';
import { quotedInput } from '../../core/problem.ts';
import type { LiveBoardRecord } from '../../core/records/departures.ts';
import { boardResult } from '../live-board.ts';
import { isUnknownStop, parseRmvDepartures, type HafasDepartureBoard } from './departures.ts';

/** Frankfurt (Main) Hauptbahnhof. */
export const RMV_DEFAULT_STOP = '3000010';

/** RMV HAFAS ReST `departureBoard` (format=json) with the server's access id. */
export const rmvDepartures: Adapter<LiveBoardRecord> = async ({ http, params }) => {
  const stop = (params.stop as string | undefined) ?? RMV_DEFAULT_STOP;
  const body = await http.json<HafasDepartureBoard>('/departureBoard', {
    query: { id: stop, format: 'json', duration: 60, maxJourneys: 40, accessId: http.credential('RMV_API_KEY') },
    okStatuses: [400],
  });
  if (isUnknownStop(body)) return { data: null, status: 'no_data', meta: { reason: `RMV knows no stop${quotedInput(stop)}` } };
  return boardResult(parseRmvDepartures(body, stop));
};
