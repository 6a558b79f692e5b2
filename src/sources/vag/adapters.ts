import type { Adapter } from '../../core/data-type.ts';
import type { LiveBoardRecord } from '../../core/records/departures.ts';
import { boardResult } from '../live-board.ts';
import { parseVagDepartures } from './departures.ts';

/** Nürnberg Hauptbahnhof. */
export const VAG_DEFAULT_STOP = '510';

/** VAG `abfahrten.json/vgn/{stop}` (keyless). */
export const vagDepartures: Adapter<LiveBoardRecord> = async ({ http, params }) => {
  const stop = (params.stop as string | undefined) ?? VAG_DEFAULT_STOP;
  const body = await http.json<unknown>('/abfahrten.json/vgn/{stop}', { params: { stop } });
  return boardResult(parseVagDepartures(body, stop));
};
