import type { EventRecord } from '../../core/records/places.ts';
import { hasZone, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** eT4 META search answer with template ET2014A.json (only the members used here). */
export interface Et4Answer {
  status?: string;
  count?: number;
  overallcount?: number;
  items?: unknown[];
}

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/** One item of the answer: every member read here may be absent (records are filled in by many tourism boards). */
const ItemShape = z.looseObject({
  id: optText,
  global_id: optText,
  title: optText,
  type: optText,
  categories: z.array(z.string()).nullish(),
  texts: z.array(z.looseObject({ rel: optText, type: optText, value: optText })).nullish(),
  city: optText,
  zip: optText,
  street: optText,
  web: optText,
  name: optText,
  geo: z.looseObject({ main: z.looseObject({ latitude: optNumber, longitude: optNumber }).nullish() }).nullish(),
  media_objects: z.array(z.looseObject({ rel: optText, url: optText, type: optText })).nullish(),
  timeIntervals: z.array(z.looseObject({ start: optText, end: optText, tz: optText, freq: optText, repeatUntil: optText })).nullish(),
  attributes: z.array(z.looseObject({ key: optText, value: optText })).nullish(),
  addresses: z.array(z.looseObject({ rel: optText, name: optText })).nullish(),
  license: optText,
});
export type Et4Item = z.output<typeof ItemShape>;
const AnswerShape = z.looseObject({ items: z.array(ItemShape) });

/** Licences of records that may be passed on (the search asks only for these). */
export const OPEN_LICENSES = ['CC0', 'CC-BY', 'CC-BY-SA'] as const;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const coord = (v: unknown, max: number): number | null => (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max ? v : null);
const zoned = (v: string | null | undefined): string | null => (v && hasZone(v) && !Number.isNaN(Date.parse(v)) ? toBerlinIso(v) : null);

/** The search term: the city, only openly licensed records. */
export function eventQuery(cityName: string): string {
  return `city:"${cityName.replace(/"/g, '')}" AND attribute_license:(${OPEN_LICENSES.join(' OR ')})`;
}

/** The interval that ends next after `now` (an event's past dates are listed too), else the first. */
function nextInterval(item: Et4Item, now: Date): { start: string | null; end: string | null; count: number } {
  const intervals = (item.timeIntervals ?? []).map((t) => ({ start: zoned(t.start), end: zoned(t.end) ?? zoned(t.start), recurring: !!t.freq }));
  const upcoming = intervals
    .filter((t) => t.end !== null && Date.parse(t.end) >= now.getTime())
    .sort((a, b) => Date.parse(a.start ?? a.end!) - Date.parse(b.start ?? b.end!));
  const pick = upcoming[0] ?? intervals[0];
  return { start: pick?.start ?? null, end: pick?.end ?? null, count: upcoming.length };
}

function attribute(item: Et4Item, key: RegExp): string | null {
  return str(item.attributes?.find((a) => typeof a.key === 'string' && key.test(a.key))?.value);
}

export function parseEvent(item: Et4Item, now: Date): EventRecord {
  const when = nextInterval(item, now);
  const teaser = item.texts?.find((t) => t.rel === 'teaser' && t.type === 'text/plain' && str(t.value));
  const details = item.texts?.find((t) => t.rel === 'details' && t.type === 'text/plain' && str(t.value));
  return {
    id: str(item.global_id) ?? str(item.id),
    title: str(item.title),
    categories: item.categories ?? [],
    start: when.start,
    end: when.end,
    upcoming_dates: when.count,
    description: str(teaser?.value) ?? str(details?.value),
    venue: str(item.name),
    street: str(item.street),
    post_code: str(item.zip) && /^\d{5}$/.test(item.zip!.trim()) ? item.zip!.trim() : null,
    place: str(item.city),
    lat: coord(item.geo?.main?.latitude, 90),
    lon: coord(item.geo?.main?.longitude, 180),
    url: str(item.web),
    image_url: str(item.media_objects?.find((m) => m.rel === 'default')?.url),
    organizer: str(item.addresses?.find((a) => a.rel === 'organizer')?.name),
    // The licence as a record field or, as the search filter `attribute_license` suggests, as an attribute.
    license: str(item.license) ?? attribute(item, /^licen[cs]e$/i),
  };
}

export function parseEvents(body: Et4Answer, now: Date): EventRecord[] {
  if (body && typeof body === 'object' && body.status !== undefined && body.status !== 'OK')
    throw new UpstreamError('parse', `eT4 status ${String(body.status).slice(0, 40)}`);
  return shaped(AnswerShape, body, 'eT4 search')
    .items.filter((i) => i.type == null || i.type === 'Event')
    .map((i) => parseEvent(i, now))
    .sort((a, b) => (a.start ?? '9').localeCompare(b.start ?? '9'));
}
