import type { CacheWindows, FetchContext } from '../../core/data-type.ts';
import type { FlowSegment, FlowState } from '../../core/records/roads.ts';
import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** The feed's four state classes and their place in the shared vocabulary. */
export const CLASSES = { fliessend: 'free', dicht: 'dense', zäh: 'slow', gestaut: 'congested' } as const satisfies Record<string, FlowState>;
export type StateClass = keyof typeof CLASSES;

/** Segments fetched per non-free class; the counts come from `numberMatched`, never from a full download. */
export const SEGMENT_CAP = 250;
export const SNAPSHOT: CacheWindows = { freshSeconds: 240, staleSeconds: 1800 };

/** An OGC API Features items page (GeoJSON FeatureCollection with the OGC members). */
export interface ItemsPage {
  type?: string;
  numberMatched?: number;
  numberReturned?: number;
  timeStamp?: string;
  features?: {
    id?: string | number;
    geometry?: { type?: string; coordinates?: unknown[] } | null;
    properties?: Record<string, unknown> | null;
  }[];
}

export interface ClassPage {
  state: StateClass;
  matched: number;
  segments: FlowSegment[];
  /** Newest `zeitstempel_utc` of the page, else the page's `timeStamp` (zoned). */
  asOf: string | null;
}

/** "2026-06-13 20:40:00" (UTC, no T and no zone) -> zoned Europe/Berlin. */
export function utcStamp(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(v.trim());
  if (!m) return null;
  return toBerlinIso(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)));
}

function zoned(v: unknown): string | null {
  if (typeof v !== 'string' || !/(Z|[+-]\d{2}:?\d{2})$/.test(v)) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : toBerlinIso(ms);
}

/** Middle vertex of the LineString ([lon, lat]) as the segment's point. */
function midpoint(coords: unknown[] | undefined): { lat: number; lon: number } | null {
  if (!coords?.length) return null;
  const mid = coords[Math.floor(coords.length / 2)];
  if (!Array.isArray(mid) || typeof mid[0] !== 'number' || typeof mid[1] !== 'number') return null;
  return { lat: mid[1], lon: mid[0] };
}

/** What a class page must hold: a FeatureCollection with its count; features are read tolerantly. */
const PageShape = z.looseObject({ type: z.literal('FeatureCollection'), numberMatched: z.number(), features: z.array(z.unknown()), timeStamp: z.unknown() });

export function parseClassPage(state: StateClass, page: ItemsPage): ClassPage {
  const checked = shaped(PageShape, page, 'Hamburg Verkehrslage items');
  let newest: string | null = null;
  const segments: FlowSegment[] = checked.features.map((item) => {
    const f = (item && typeof item === 'object' ? item : {}) as NonNullable<ItemsPage['features']>[number];
    const p = f.properties ?? {};
    const observed = utcStamp(p.zeitstempel_utc);
    if (observed && (!newest || observed > newest)) newest = observed;
    const at = midpoint(f.geometry?.coordinates);
    const cls = typeof p.zustandsklasse === 'string' && p.zustandsklasse in CLASSES ? (p.zustandsklasse as StateClass) : state;
    return {
      id: f.id === undefined ? null : String(f.id),
      state: CLASSES[cls],
      road_class: typeof p.strassenklasse === 'string' ? p.strassenklasse : null,
      lat: at?.lat ?? null,
      lon: at?.lon ?? null,
      observed_at: observed,
      geometry:
        f.geometry && typeof f.geometry.type === 'string' && Array.isArray(f.geometry.coordinates)
          ? { type: f.geometry.type, coordinates: f.geometry.coordinates }
          : null,
      // The feed names its class (zustandsklasse), already mapped above: nothing left to keep.
      raw: null,
    };
  });
  return { state, matched: checked.numberMatched, segments, asOf: newest ?? zoned(checked.timeStamp) };
}

/** One class of the snapshot through the source's shared cache (both data types read the same pages). */
export function classPage(ctx: Pick<FetchContext, 'http' | 'cached'>, state: StateClass): Promise<ClassPage> {
  const limit = state === 'fliessend' ? 1 : SEGMENT_CAP;
  return ctx.cached(`class:${state}:${limit}`, SNAPSHOT, async () =>
    parseClassPage(state, await ctx.http.json<ItemsPage>('/collections/verkehrslage/items', { query: { f: 'json', limit, zustandsklasse: state } })),
  );
}

/** All four classes (counts, capped segments) and the snapshot's time. */
export async function snapshot(ctx: Pick<FetchContext, 'http' | 'cached'>): Promise<{ pages: Record<StateClass, ClassPage>; asOf: string | null }> {
  const states = Object.keys(CLASSES) as StateClass[];
  const list = await Promise.all(states.map((s) => classPage(ctx, s)));
  const pages = Object.fromEntries(list.map((p) => [p.state, p])) as Record<StateClass, ClassPage>;
  const stamps = list.map((p) => p.asOf).filter((s): s is string => s !== null);
  return { pages, asOf: stamps.length ? stamps.sort().at(-1)! : null };
}
