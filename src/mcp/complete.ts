import type { Catalog } from '../catalog/index.ts';
import { CITIES, type City } from '../cities/register.ts';
import { findCity, suggest } from '../cities/resolve.ts';
import { fold, stripped } from '../core/fold.ts';
import { coveredCities } from '../core/data-type.ts';

/** MCP caps a completion answer at 100 values. */
const MAX = 100;

const KEYS: { city: City; keys: string[] }[] = CITIES.map((city) => ({
  city,
  keys: [...new Set([city.slug, city.name, ...city.aliases].flatMap((n) => [fold(n), stripped(fold(n))]))],
}));

/**
 * City completion, as tolerant as the slug resolution: an exact spelling (Munich, Köln) gives its
 * canonical slug first, then slugs whose name or alias starts with the input, then those containing
 * it, then the did-you-mean of a typo. Larger cities first within a rank.
 */
export function completeCity(value: string): string[] {
  const f = fold(value);
  if (!f)
    return [...CITIES]
      .sort((a, b) => b.population - a.population)
      .map((c) => c.slug)
      .slice(0, MAX);
  const s = stripped(f);
  const rank = new Map<City, number>();
  const exact = findCity(value);
  if (exact) rank.set(exact, 0);
  for (const { city, keys } of KEYS) {
    if (rank.has(city)) continue;
    if (keys.some((k) => k.startsWith(f) || k.startsWith(s))) rank.set(city, 1);
    else if (keys.some((k) => k.includes(f) || k.includes(s))) rank.set(city, 2);
  }
  if (rank.size === 0) {
    const near = suggest(value);
    if (near) rank.set(near, 3);
  }
  return [...rank]
    .sort(([a, ra], [b, rb]) => ra - rb || b.population - a.population)
    .map(([c]) => c.slug)
    .slice(0, MAX);
}

/** Data type completion by prefix, then substring; with a known city only the types that cover it. */
export function completeDataType(catalog: Catalog, value: string, city?: string): string[] {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, '-');
  const c = city ? findCity(city) : null;
  const types = catalog.all
    .filter((dt) => {
      if (!c) return true;
      const covered = coveredCities(dt);
      return dt.scope !== 'global' && (!covered || covered.includes(c.slug));
    })
    .map((dt) => dt.type);
  return [...types.filter((t) => t.startsWith(v)), ...types.filter((t) => !t.startsWith(v) && t.includes(v))].slice(0, MAX);
}
