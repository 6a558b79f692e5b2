import type { SourceHttp } from '../../core/adapter-http.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { mergeBoard, type BoardEntryOf, type BoardKind } from './board.ts';
import { parseTimetableXml, type TimetableXml } from './xml.ts';

/** The plan slot (`yyMMdd`, `HH`) that contains `at`, in Europe/Berlin local time. */
export function planSlot(at: Date): { date: string; hour: string; start: Date } {
  const s = toBerlinIso(at);
  const [y, mo, d, h] = [s.slice(0, 4), s.slice(5, 7), s.slice(8, 10), s.slice(11, 13)];
  return { date: `${y.slice(2)}${mo}${d}`, hour: h, start: berlinLocalToDate(+y, +mo, +d, +h) };
}

/**
 * One board: the plan of the current and the next hour plus the full change list
 * (3 calls, counted against DB's 60 calls per minute).
 */
export async function fetchBoard<K extends BoardKind>(
  http: SourceHttp,
  eva: string,
  kind: K,
  now: Date,
): Promise<{ station: { eva: string; name: string | null }; entries: BoardEntryOf<K>[]; window: { from: Date; to: Date } }> {
  const headers = {
    'DB-Client-Id': http.credential('DB_CLIENT_ID'),
    'DB-Api-Key': http.credential('DB_API_KEY'),
    accept: 'application/xml',
  };
  const thisHour = planSlot(now),
    nextHour = planSlot(new Date(now.getTime() + 3_600_000));
  const slots = [thisHour, nextHour];
  const [changes, ...plans] = await Promise.all([
    http.request('/fchg/{eva}', { params: { eva }, headers, okStatuses: [404] }),
    ...slots.map((s) => http.request('/plan/{eva}/{date}/{hour}', { params: { eva, date: s.date, hour: s.hour }, headers, okStatuses: [404] })),
  ]);
  // 404 answers a slot or station without anything planned; it is not a failure of the source.
  const parse = (r: { status: number; body: Buffer }): TimetableXml | null => (r.status === 404 ? null : parseTimetableXml(r.body.toString('utf8')));
  const planned = plans.map(parse).filter((t): t is TimetableXml => t !== null);
  const window = { from: thisHour.start, to: new Date(nextHour.start.getTime() + 3_600_000) };
  const { station, entries } = mergeBoard(kind, planned, parse(changes), window);
  return { station: { eva, name: station }, entries, window };
}
