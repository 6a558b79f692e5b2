import type { Adapter } from '../../core/data-type.ts';
import type { EventRecord } from '../../core/records/places.ts';
import { EVENT_EXPERIENCES } from './source.ts';
import { eventQuery, parseEvents, type Et4Answer } from './events.ts';

/** Events of the next months; the search returns at most this many. */
export const EVENT_LIMIT = 200;
export const EVENT_MONTHS = 3;

/** The tourism board's open-data experience, searched for the city's openly licensed events. */
export const cityEvents: Adapter<EventRecord[]> = async ({ city, http, now }) => {
  const experience = EVENT_EXPERIENCES[city.slug];
  if (!experience) return { data: null, status: 'no_data', meta: { reason: 'no open-data event source for this city' } };
  const body = await http.json<Et4Answer>('/search/', {
    query: { experience, type: 'Event', template: 'ET2014A.json', mode: `next_months,${EVENT_MONTHS}`, limit: EVENT_LIMIT, q: eventQuery(city.name) },
  });
  const events = parseEvents(body, now);
  if (events.length === 0) return { data: null, status: 'no_data', meta: { reason: `no openly licensed event in the next ${EVENT_MONTHS} months` } };
  const overall = typeof body.overallcount === 'number' ? body.overallcount : events.length;
  return {
    data: events,
    meta: { total: overall, experience, ...(overall > events.length ? { truncated: true, note: `the first ${events.length} of ${overall}` } : {}) },
  };
};
