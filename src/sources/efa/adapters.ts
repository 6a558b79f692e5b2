import type { Adapter } from '../../core/data-type.ts';
import { quotedInput } from '../../core/problem.ts';
import type { LiveBoardRecord } from '../../core/records/departures.ts';
import { boardResult } from '../live-board.ts';
import { parseEfaDepartures, type EfaDmResponse } from './departures.ts';

/**
 * Default stop per served city: DELFI global ids where a public source confirms them, else the
 * main station's name, which the EFA resolves itself (type_dm=any).
 */
export const EFA_DEFAULT_STOPS: Readonly<Record<string, string>> = {
  duesseldorf: 'de:05111:18235',
  essen: 'de:05113:9289',
  bochum: 'de:05911:5194',
  dortmund: 'Dortmund Hbf',
  duisburg: 'Duisburg Hbf',
  wuppertal: 'Wuppertal Hbf',
  stuttgart: 'de:08111:6115',
};
/** Cities served by the VVS monitor (the others by VRR's). */
const EFA_VVS_CITIES = new Set(['stuttgart']);

/** EFA departure monitor (`XML_DM_REQUEST`, rapidJSON) of VRR or VVS. */
export const efaDepartures: Adapter<LiveBoardRecord> = async ({ http, params, city }) => {
  const stop = (params.stop as string | undefined) ?? EFA_DEFAULT_STOPS[city.slug];
  const body = await http.json<EfaDmResponse>('/XML_DM_REQUEST', {
    base: EFA_VVS_CITIES.has(city.slug) ? http.url('vvs') : undefined,
    query: { outputFormat: 'rapidJSON', type_dm: 'any', name_dm: stop, mode: 'direct', useRealtime: 1, stateless: 1, limit: 40 },
  });
  const parsed = parseEfaDepartures(body);
  if ('noData' in parsed) return { data: null, status: 'no_data', meta: { reason: `${parsed.noData} (stop${quotedInput(stop)})` } };
  return boardResult(parsed.board);
};
