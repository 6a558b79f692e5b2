import { CITIES, cityEntry } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { paginate, parsePageRequest, type Channel } from '../http/pagination.ts';
import type { Envelope } from './context.ts';

const ENTRIES = CITIES.map(cityEntry);

/** The register, paged by channel (direct REST gets all cities unless it asks for a page). */
export function listCities(query: Record<string, unknown>, channel: Channel): Envelope {
  const { items, meta: pagination } = paginate(ENTRIES, parsePageRequest(query), channel);
  return {
    data: items,
    meta: {
      source_status: 'ok',
      total: ENTRIES.length,
      core: ENTRIES.filter((c) => c.core).length,
      pagination,
      provenance: 'Destatis Gemeindeverzeichnis, Wikidata; see src/cities/PROVENANCE.md',
    },
  };
}

/** One register entry by tolerant slug; throws city_not_found with a did-you-mean hint. */
export function getCity(raw: string): Envelope & { meta: { city: string } } {
  const city = resolveCity(raw);
  const meta: { city: string } & Record<string, unknown> = { source_status: 'ok', city: city.slug, canonical_path: `/api/v1/cities/${city.slug}` };
  if (raw !== city.slug) meta.resolved_from = raw;
  return { data: cityEntry(city), meta };
}
