import type { AdapterResult } from '../core/data-type.ts';
import type { LiveBoard, LiveBoardRecord } from '../core/records/departures.ts';

/** A city feed's board as an answer: no departure announced is no_data, not an empty ok. */
export function boardResult(board: LiveBoard): AdapterResult<LiveBoardRecord> {
  const data = { stop: board.stop, departures: board.departures };
  if (board.departures.length === 0) return { data, status: 'no_data', as_of: board.as_of, meta: { reason: 'no departures announced at this stop' } };
  return { data, as_of: board.as_of };
}
