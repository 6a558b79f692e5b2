import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { LoadSeries, PowerLoadRecord, PowerPriceRecord, PriceSeries, SmardResolution } from '../../core/records/power.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { driftAt } from '../../core/upstream-shape.ts';
import { SLOT_MS, latestWindow, parseBlock, parseIndex, type SlotValue } from './chart-data.ts';

/** SMARD filter ids. */
export const FILTER = { load: 410, dayAheadPrice: 4169 } as const;

/**
 * Control area by federal state, only for states that lie wholly in one TSO's area. The other
 * states (BW, BY, HE, NI, NW) are split between TSOs along grid lines no open source maps to
 * municipalities, so they get none rather than a guess.
 */
const CONTROL_AREA_BY_STATE: Record<string, string> = {
  BE: '50Hertz',
  BB: '50Hertz',
  HH: '50Hertz',
  MV: '50Hertz',
  SN: '50Hertz',
  ST: '50Hertz',
  TH: '50Hertz',
  SH: 'TenneT',
  HB: 'TenneT',
  RP: 'Amprion',
  SL: 'Amprion',
};

export function controlAreaOf(state: string): string | null {
  return CONTROL_AREA_BY_STATE[state] ?? null;
}

/** Blocks read back at most to fill 24 h (a new block may have only a few published slots). */
const MAX_BLOCKS = 3;

/**
 * One listed block's points, or null when SMARD does not serve it (404): its index can name a block before the
 * block itself is there.
 */
export async function readBlock(ctx: FetchContext, filter: number, region: string, resolution: SmardResolution, block: number) {
  try {
    return parseBlock(
      await ctx.http.json<unknown>('/{filter}/{region}/{file}', { params: { filter, region, file: `${filter}_${region}_${resolution}_${block}.json` } }),
    );
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) return null;
    throw err;
  }
}

/** The latest published window of one series, shared by all cities through the source cache. */
async function window(ctx: FetchContext, filter: number, region: string, resolution: SmardResolution) {
  return ctx.cached(`${filter}:${region}:${resolution}`, { freshSeconds: 600, staleSeconds: 6 * 3600 }, async () => {
    const blocks = parseIndex(await ctx.http.json<unknown>('/{filter}/{region}/index_{resolution}.json', { params: { filter, region, resolution } }));
    let points: [number, number | null][] = [];
    let served = false;
    for (const block of blocks.slice(-MAX_BLOCKS).reverse()) {
      const read = await readBlock(ctx, filter, region, resolution, block);
      if (!read) continue;
      served = true;
      points = [...read, ...points];
      const w = latestWindow(points, resolution);
      // Done once the window reaches back 24 h into what this block holds.
      if (w.latest && Date.parse(w.latest.start) - 24 * 3_600_000 + SLOT_MS[resolution] >= block) return w;
    }
    // An index whose newest blocks are all missing no longer says where the series is.
    if (!served) throw driftAt('SMARD index', ['timestamps'], 'names no block SMARD serves');
    return latestWindow(points, resolution);
  });
}

const load = (s: SlotValue) => ({ start: s.start, end: s.end, load_mwh: s.value });
const price = (s: SlotValue) => ({ start: s.start, end: s.end, price_eur_mwh: s.value });

async function loadSeries(ctx: FetchContext, region: string, kind: 'national' | 'control_area', resolution: SmardResolution): Promise<LoadSeries> {
  const w = await window(ctx, FILTER.load, region, resolution);
  return { region, region_kind: kind, resolution, latest: w.latest && load(w.latest), last_24h: w.last24h.map(load) };
}

/** Grid load (filter 410) for Germany and, where known, the city's control area. */
export const powerLoad: Adapter<PowerLoadRecord> = async (ctx) => {
  const resolution = ctx.params.resolution as SmardResolution;
  const national = await loadSeries(ctx, 'DE', 'national', resolution);
  if (!national.latest) return { data: null, status: 'no_data', meta: { reason: 'SMARD has published no grid load value in its latest blocks' } };
  const area = controlAreaOf(ctx.city.state);
  let control: LoadSeries | null = null;
  let note = area
    ? `${ctx.city.state_name} lies wholly in the ${area} control area`
    : `${ctx.city.state_name} is split between transmission control areas; no open source assigns municipalities`;
  if (area) {
    try {
      control = await loadSeries(ctx, area, 'control_area', resolution);
    } catch (err) {
      // The national series is the answer; a missing control-area file only drops that part.
      if (!(err instanceof UpstreamError)) throw err;
      note = `${ctx.city.state_name} lies wholly in the ${area} control area, but SMARD's ${area} series could not be read (${err.kind})`;
    }
  }
  return {
    data: { national, control_area: control?.latest ? control : null, control_area_note: note },
    as_of: national.latest.start,
  };
};

/** Day-ahead price (filter 4169) of the bidding zone DE-LU, the same for every city. */
export const powerPrice: Adapter<PowerPriceRecord> = async (ctx) => {
  const resolution = ctx.params.resolution as SmardResolution;
  const w = await window(ctx, FILTER.dayAheadPrice, 'DE-LU', resolution);
  if (!w.latest) return { data: null, status: 'no_data', meta: { reason: 'SMARD has published no day-ahead price in its latest blocks' } };
  const series: PriceSeries = { region: 'DE-LU', region_kind: 'bidding_zone', resolution, latest: price(w.latest), last_24h: w.last24h.map(price) };
  return { data: { bidding_zone: series }, as_of: series.latest?.start ?? null };
};
