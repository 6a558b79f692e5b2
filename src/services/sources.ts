import type { DataType, SourceRole, TypeSource } from '../core/data-type.ts';
import { paginate, parsePageRequest, parseSort, sortBy, type Channel } from '../http/pagination.ts';
import { DEFAULT_BREAKER, worstState } from '../pipeline/breakers.ts';
import type { Envelope, ServiceContext } from './context.ts';
import { provenanceOf } from '../sources/provenance.ts';
import { lastUpstreamCheck } from './upstream-check.ts';

export const SOURCE_SORTS = ['source', 'enabled', 'license'] as const;

/** State of every upstream: toggle, credentials, breaker, licence, last success and failure. */
export async function listSources({ rt }: Pick<ServiceContext, 'rt'>, query: Record<string, unknown>, channel: Channel): Promise<Envelope> {
  const { sort, order } = parseSort(query, SOURCE_SORTS);
  const page = parsePageRequest(query);
  const checked = await lastUpstreamCheck(rt.config.checkUpstreamsResultPath);
  /** The data types listing source `id` in one of these roles, with that listing. */
  const listing = (id: string, roles: readonly SourceRole[]) =>
    rt.catalog.all.flatMap((dt) => dt.sources.filter((x) => x.source.id === id && roles.includes(x.role)).map((x): [DataType, TypeSource] => [dt, x]));
  const types = (id: string, roles: readonly SourceRole[]) => [...new Set(listing(id, roles).map(([dt]) => dt.type))];
  const items = await Promise.all(
    rt.config.sourceList.map(async (s) => {
      const settings = rt.settings(s);
      const provenance = provenanceOf(s.id);
      const breakers = await rt.breakers.hostViews(s);
      return {
        source: s.id,
        name: s.name,
        enabled: rt.sourceEnabled(s),
        toggle: settings.enabled,
        credentials: (s.credentials ?? []).length === 0 ? 'none' : settings.missingCredentials.length === 0 ? 'configured' : 'missing',
        credential_variables: s.credentials ?? [],
        missing_credentials: settings.missingCredentials,
        registration: s.registration ?? null,
        // Data types it answers as a primary (a type with one source per city or operator is unlocked by each).
        unlocks: types(s.id, ['primary']),
        // Data types it answers as a primary for some cities (or parameter values) only.
        variant_for: listing(s.id, ['primary'])
          .filter(([, x]) => x.for)
          .map(([dt, x]) => (dt.scope === 'global' ? { type: dt.type, values: [...x.for!].sort() } : { type: dt.type, cities: [...x.for!].sort() })),
        // Data types it answers in a primary's place (stand-in or failover).
        fallback_for: types(s.id, ['stand-in', 'failover']),
        // Data types whose adapters read a part of their answer from it.
        part_of: types(s.id, ['part']),
        breaker_state: worstState(breakers.map((b) => b.state)),
        // One breaker per upstream host: a dead city portal leaves the other cities' hosts closed.
        breakers,
        breaker: {
          threshold: s.breaker?.threshold ?? DEFAULT_BREAKER.threshold,
          cooldown_seconds: s.breaker?.cooldownSeconds ?? DEFAULT_BREAKER.cooldownSeconds,
        },
        license: s.license,
        license_url: s.licenseUrl,
        tier: s.tier,
        attribution: s.attribution,
        ...rt.health.view(s.id),
        // What the adapter's tests read: real recorded answers, or only payloads built from the documentation.
        verified_on: provenance.verified_on,
        recordings: provenance.recordings,
        upstream_check: checked?.sources[s.id] ?? null,
      };
    }),
  );
  const sorted = sort ? sortBy(items, (x) => x[sort], order) : order === 'desc' ? [...items].reverse() : items;
  const { items: pageItems, meta: pagination } = paginate(sorted, page, channel, true);
  return {
    data: pageItems,
    meta: { source_status: 'ok', total: items.length, page: pagination.page, limit: pagination.limit, offset: pagination.offset, sort, order, pagination },
  };
}
