import type { FetchContext } from '../../core/data-type.ts';
import type { BackfillPoint, HistoryBackfill } from '../../core/history-sink.ts';
import { toBerlinIso } from '../../core/time.ts';
import { FILTER, readBlock } from './adapters.ts';
import { parseIndex } from './chart-data.ts';

/** Published weeks read back when a series starts: about the month SMARD's blocks make easy to reach. */
export const BACKFILL_WEEKS = 5;

/** Hourly blocks: SMARD publishes every series at this resolution, back to its start. */
const resolution = 'hour';

/**
 * Every published slot of the last BACKFILL_WEEKS weekly blocks of one SMARD series, as history
 * points of `field`. A block the index lists but SMARD does not serve (404) is skipped.
 */
async function publishedWeeks(ctx: FetchContext, filter: number, region: string, field: string): Promise<BackfillPoint[]> {
  const blocks = parseIndex(await ctx.http.json<unknown>('/{filter}/{region}/index_{resolution}.json', { params: { filter, region, resolution } }));
  const out: BackfillPoint[] = [];
  for (const block of blocks.slice(-BACKFILL_WEEKS)) {
    // Null slots are not published yet (or a gap): nothing to record.
    for (const [t, v] of (await readBlock(ctx, filter, region, resolution, block)) ?? [])
      if (v !== null) out.push({ t: toBerlinIso(t), values: { [field]: v } });
  }
  return out;
}

/** Grid load of Germany (the national series the history records). */
export const powerLoadBackfill: HistoryBackfill = (ctx) => publishedWeeks(ctx, FILTER.load, 'DE', 'load_mwh');

/** Day-ahead price of the bidding zone DE-LU. */
export const powerPriceBackfill: HistoryBackfill = (ctx) => publishedWeeks(ctx, FILTER.dayAheadPrice, 'DE-LU', 'price_eur_mwh');
