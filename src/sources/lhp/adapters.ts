import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { FloodGauge, FloodRecord } from '../../core/records/water.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { mapLimit } from '../../core/limit.ts';
import { FLOOD_GAUGES } from './gauges.ts';
import { extractToken, parseInfosPegel } from './parse.ts';

/** The token is a session value: read it once per few minutes, not per request. */
const TOKEN_WINDOWS = { freshSeconds: 300, staleSeconds: 0 };

async function freshToken(ctx: FetchContext): Promise<string> {
  const token = extractToken(await ctx.http.text('/'));
  if (!token) throw new UpstreamError('parse', 'LHP home page without the addLagePegel(<token>) marker');
  return token;
}

async function infos(ctx: FetchContext, gaugeId: string, token: string): Promise<string> {
  const res = await ctx.http.request('/webservices/get_infospegel.php', { method: 'POST', form: { pgnr: gaugeId, ki: token } });
  return res.body.toString('utf8');
}

/**
 * One gauge with the cached token; an empty body means the token expired, so a fresh token is
 * read from the home page and the call repeated once.
 */
async function gaugeInfo(ctx: FetchContext, gaugeId: string): Promise<FloodGauge | null> {
  let body = await infos(ctx, gaugeId, await ctx.cached('token', TOKEN_WINDOWS, () => freshToken(ctx)));
  if (body.trim() === '') body = await infos(ctx, gaugeId, await freshToken(ctx));
  if (body.trim() === '') throw new UpstreamError('parse', 'LHP answered empty even with a fresh token');
  return parseInfosPegel(body, gaugeId, ctx.now);
}

/** Compact "Stand" in the form the portal asks for: TT.MM.JJJJ hh:mm. */
export function standLabel(iso: string): string {
  return `Stand: ${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)} ${iso.slice(11, 16)}`;
}

/** `flood`: the LHP warning level of the city's curated gauge(s). */
export const floodLevels: Adapter<FloodRecord> = async (ctx) => {
  const ids = FLOOD_GAUGES[ctx.city.slug] ?? [];
  const gauges = (await mapLimit(ids, 2, (id) => gaugeInfo(ctx, id))).filter((g): g is FloodGauge => g !== null);
  if (gauges.length === 0) return { data: null, status: 'no_data', meta: { reason: 'LHP knows none of the city gauges' } };
  const times = gauges.map((g) => g.measured_at).filter((t): t is string => t !== null);
  const updated = times.length ? times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) : null;
  const levels = gauges.map((g) => g.warning_level).filter((l): l is number => l !== null);
  return {
    data: {
      updated_at: updated,
      stand: updated ? standLabel(updated) : null,
      max_warning_level: levels.length ? Math.max(...levels) : null,
      gauges,
    },
    as_of: updated,
  };
};
