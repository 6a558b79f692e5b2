import type { Adapter } from '../../core/data-type.ts';
import type { CouncilPapersRecord } from '../../core/records/city-base.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { toBerlinIso } from '../../core/time.ts';
import { driftAt } from '../../core/upstream-shape.ts';
import { OPARL_SYSTEM_BY_SLUG } from './systems.ts';
import { assertSystem, bodyList, byNewest, paperList, parsePaper } from './parse.ts';

/** Papers created or changed in this many days count as recent. */
export const RECENT_DAYS = 30;
/** Pages of the paper list read at most (each up to the server's page size). */
export const MAX_PAGES = 3;
export const MAX_PAPERS = 100;

/**
 * OParl links are absolute URLs on the system's own host. They are followed on the configured
 * system URL's host (keeping path and query), so a configured mirror or proxy serves every
 * call; links to other hosts are followed as they are.
 */
function follow(http: SourceHttp, link: string, systemUrl: string, systemId: string | undefined) {
  const target = new URL(link, systemUrl);
  const own = systemId ? new URL(systemId, systemUrl).origin : new URL(systemUrl).origin;
  const base = target.origin === own ? new URL(systemUrl).origin : target.origin;
  return <T>(query?: Record<string, string>) => http.json<T>(target.pathname + target.search, { base, query });
}

/**
 * The city's OParl system -> its body -> the paper list, asked for papers changed within the
 * last RECENT_DAYS (`modified_since`). Servers that ignore the filter send older papers too;
 * each paper carries its own date and the list is sorted newest first either way.
 */
export const councilPapers: Adapter<CouncilPapersRecord> = async ({ city, http, now }) => {
  const sys = OPARL_SYSTEM_BY_SLUG.get(city.slug);
  if (!sys) return { data: null, status: 'no_data', meta: { reason: 'no OParl system with an open licence is known for this city' } };
  const systemUrl = sys.url ? http.url(sys.url) : http.baseUrl;
  const system = assertSystem(await http.json<unknown>('', { base: systemUrl }));
  const bodies = bodyList(await follow(http, system.body, systemUrl, system.id)<unknown>()).data ?? [];
  // A system may host several bodies (e.g. a district's); the city's is the one with a paper list, by name first.
  const body = bodies.find((b) => b.paper && b.name?.includes(city.name)) ?? bodies.find((b) => b.paper);
  if (!bodies.length) return { data: null, status: 'no_data', meta: { reason: 'the OParl system lists no body' } };
  // Bodies without a paper link leave nothing to read: the list is not what the adapter knows.
  if (!body?.paper) throw driftAt('OParl body list', ['data'], 'no body links a paper list');

  const since = toBerlinIso(now.getTime() - RECENT_DAYS * 86400_000);
  const sinceDay = since.slice(0, 10);
  const papers: CouncilPapersRecord['papers'] = [];
  let next: string | null | undefined = body.paper;
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const list = paperList(await follow(http, next, systemUrl, system.id)<unknown>(page === 0 ? { modified_since: since } : undefined));
    for (const p of list.data ?? []) {
      if (p.deleted) continue;
      papers.push(parsePaper(p));
    }
    next = list.links?.next;
  }
  const license = typeof system.license === 'string' && system.license.trim() !== '' ? system.license.trim() : null;
  const data: CouncilPapersRecord = {
    system_name: typeof system.name === 'string' && system.name !== 'N/A' ? system.name : null,
    body_name: body.name ?? null,
    license: license ?? sys.license,
    license_stated_by: license ? 'system' : 'city',
    requested_since: since,
    papers: papers.sort(byNewest).slice(0, MAX_PAPERS),
  };
  if (data.papers.length === 0)
    return { data: null, status: 'no_data', meta: { reason: `no paper created or changed since ${sinceDay}`, requested_since: since } };
  return { data, as_of: data.papers.reduce<string | null>((m, p) => (p.modified && (!m || p.modified > m) ? p.modified : m), null) };
};
