import { ProblemError } from '../core/problem.ts';

/**
 * Page/limit/offset per the spec's Limits. Direct REST gets full lists of data types; the
 * GPT-actions and MCP channels are bound to DEFAULT_CHANNEL_LIMIT unless `limit=all`/`all=1`.
 */
export const MAX_LIMIT = 200;
export const DEFAULT_LIMIT = 50;
export const DEFAULT_CHANNEL_LIMIT = 25;

export type Channel = 'rest' | 'gpt-actions' | 'mcp';

export interface PageRequest {
  page: number;
  limit: number | 'all';
  offset: number;
  /** True when the client sent any of page/limit/offset. */
  explicit: boolean;
  /** True when the client sent a numeric limit; bound channels otherwise page by their default. */
  limitGiven: boolean;
  forcedAll: boolean;
}

export interface PaginationMeta {
  channel: Channel;
  applied: boolean;
  page: number | null;
  limit: number | null;
  offset: number;
  total: number;
  returned: number;
  max_limit: number;
  forced_all: boolean;
  clamped: boolean;
}

/** Page numbers and offsets past these are refused: no list is that long, and the number is never echoed. */
export const MAX_PAGE = 100_000;
export const MAX_OFFSET = 10_000_000;

/** Hints per paging parameter: the same wording wherever a list pages. */
const PAGE_HINTS: Record<string, string> = {
  page: `page must be an integer from 1 to ${MAX_PAGE}.`,
  offset: `offset must be an integer from 0 to ${MAX_OFFSET}.`,
  limit: `limit must be an integer >= 1 (values above ${MAX_LIMIT} are clamped to ${MAX_LIMIT}) or "all".`,
};

/** Bad paging values are 422 invalid_parameter, like every other invalid parameter value; the value is not echoed. */
function intParam(name: 'page' | 'offset' | 'limit', raw: unknown, min: number, max: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const s = String(raw);
  const hint = PAGE_HINTS[name] ?? '';
  if (!/^-?\d{1,12}$/.test(s)) throw new ProblemError('invalid_parameter', `${name} must be an integer`, hint, { parameter: name });
  const n = Number(s);
  if (n < min || n > max) throw new ProblemError('invalid_parameter', `${name} is out of range`, hint, { parameter: name });
  return n;
}

function truthy(raw: unknown): boolean {
  return raw === '1' || raw === 'true' || raw === true;
}

export function parsePageRequest(query: Record<string, unknown>): PageRequest {
  const forcedAll = query.limit === 'all' || truthy(query.all);
  const page = intParam('page', query.page, 1, MAX_PAGE) ?? 1;
  const offset = intParam('offset', query.offset, 0, MAX_OFFSET) ?? 0;
  // Larger limits are clamped to MAX_LIMIT (meta.pagination.clamped), so any sane number is accepted.
  const limit = forcedAll ? 'all' : intParam('limit', query.limit, 1, 1_000_000);
  return {
    page,
    offset,
    limit: limit ?? DEFAULT_LIMIT,
    explicit: query.page !== undefined || query.offset !== undefined || (query.limit !== undefined && !forcedAll),
    limitGiven: limit !== undefined && !forcedAll,
    forcedAll,
  };
}

/**
 * Slice `items`. `alwaysPaginate` is for the meta routes (sources, compare) which page by
 * default; data-type lists page only when asked or when the channel binds them.
 */
export function paginate<T>(items: T[], req: PageRequest, channel: Channel, alwaysPaginate = false): { items: T[]; meta: PaginationMeta } {
  const bound = channel !== 'rest';
  const apply = !req.forcedAll && (alwaysPaginate || req.explicit || bound);
  const total = items.length;
  if (!apply) {
    return {
      items,
      meta: {
        channel,
        applied: false,
        page: null,
        limit: null,
        offset: 0,
        total,
        returned: total,
        max_limit: MAX_LIMIT,
        forced_all: req.forcedAll,
        clamped: false,
      },
    };
  }
  let requested = typeof req.limit === 'number' ? req.limit : DEFAULT_LIMIT;
  if (bound && !req.limitGiven) requested = DEFAULT_CHANNEL_LIMIT;
  const limit = Math.min(requested, MAX_LIMIT);
  const start = req.offset > 0 ? req.offset : (req.page - 1) * limit;
  const slice = items.slice(start, start + limit);
  return {
    items: slice,
    meta: {
      channel,
      applied: true,
      page: req.offset > 0 ? null : req.page,
      limit,
      offset: start,
      total,
      returned: slice.length,
      max_limit: MAX_LIMIT,
      forced_all: false,
      clamped: requested > MAX_LIMIT,
    },
  };
}

export function parseSort<T extends string>(query: Record<string, unknown>, allowed: readonly T[]): { sort: T | null; order: 'asc' | 'desc' } {
  const sort = query.sort;
  const order = query.order ?? 'asc';
  if (sort !== undefined && !allowed.includes(sort as T)) {
    throw new ProblemError('invalid_request', 'unknown sort field', `sort must be one of: ${allowed.join(', ')}.`, { parameter: 'sort' });
  }
  if (order !== 'asc' && order !== 'desc') {
    throw new ProblemError('invalid_request', 'unknown order', 'order must be asc or desc.', { parameter: 'order' });
  }
  return { sort: (sort as T | undefined) ?? null, order };
}

export function sortBy<T>(items: T[], key: (x: T) => unknown, order: 'asc' | 'desc'): T[] {
  const dir = order === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = key(a),
      y = key(b);
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y, 'de') : x < y ? -1 : 1) * dir;
  });
}

/** The request headers channelOf reads: answers that differ by channel name them in `Vary`. */
export const CHANNEL_VARY = 'X-Stadtdaten-Channel, User-Agent';

/** The channel a request arrives on; see docs/contract.md, "Pagination". */
export function channelOf(headers: Record<string, unknown>): Channel {
  const named = headers['x-stadtdaten-channel'];
  if (named !== undefined) {
    const h = String(named).toLowerCase();
    if (h === 'gpt-actions' || h === 'gpt') return 'gpt-actions';
    if (h === 'mcp') return 'mcp';
  }
  const ua = headers['user-agent'];
  return ua !== undefined && GPT_AGENT.test(String(ua)) ? 'gpt-actions' : 'rest';
}

/** User agents of OpenAI's GPT Actions; one object, since a literal in channelOf is a new RegExp per request (a HIT asks). */
const GPT_AGENT = /ChatGPT-User|OpenAI/i;

/**
 * RFC 8288 `Link` header of a paged answer: first, prev, next and last, each the request's own
 * path and query with page and limit set (an offset becomes the page it falls on). Null when
 * the list was not paged.
 */
export function pageLinkHeader(url: string, pm: PaginationMeta | undefined): string | null {
  if (!pm?.applied || !pm.limit) return null;
  const limit = pm.limit;
  const last = Math.max(1, Math.ceil(pm.total / limit));
  const current = Math.floor(pm.offset / limit) + 1;
  const [path = '', query = ''] = url.split('?', 2);
  const link = (page: number, rel: string) => {
    const q = new URLSearchParams(query);
    q.delete('offset');
    q.set('page', String(page));
    q.set('limit', String(limit));
    return `<${path}?${q.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (current > 1) links.push(link(Math.min(current - 1, last), 'prev'));
  if (current < last) links.push(link(current + 1, 'next'));
  links.push(link(last, 'last'));
  return links.join(', ');
}

/** Sets the `Link` header on a reply when its list was paged. */
export function setPageLinks(reply: { header(name: string, value: string): unknown }, url: string, pm: unknown): void {
  const link = pageLinkHeader(url, pm as PaginationMeta | undefined);
  if (link) reply.header('link', link);
}
