import { CITIES, CITY_BY_SLUG, type City } from './register.ts';
import { ProblemError } from '../core/problem.ts';
import { levenshtein } from '../core/suggest.ts';
import { fold, stripped } from '../core/fold.ts';

export { levenshtein };

/**
 * Tolerant slug resolution: case, umlauts written/transliterated/stripped, URL encoding,
 * exonyms and short forms from the register's aliases; otherwise a did-you-mean 404.
 */

const index = new Map<string, City>();
function add(key: string, city: City) {
  const prior = index.get(key);
  if (prior && prior !== city) throw new Error(`city alias "${key}" is ambiguous: ${prior.slug} / ${city.slug}`);
  index.set(key, city);
}
for (const city of CITIES) {
  for (const name of [city.slug, city.name, ...city.aliases]) {
    const f = fold(name);
    add(f, city);
    add(stripped(f), city);
  }
}

function decode(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

export function findCity(raw: string): City | null {
  const direct = CITY_BY_SLUG.get(raw);
  if (direct) return direct;
  const f = fold(decode(raw));
  return index.get(f) ?? index.get(stripped(f)) ?? null;
}

/** Nearest canonical slug when it is close enough to be a typo, else null. */
export function suggest(raw: string): City | null {
  const f = stripped(fold(decode(raw)));
  if (!f) return null;
  let best: City | null = null;
  let bestDist = Infinity;
  for (const [key, city] of index) {
    const d = levenshtein(f, key);
    if (d < bestDist) {
      bestDist = d;
      best = city;
    }
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(f.length / 3)));
  return bestDist <= allowed ? best : null;
}

export function resolveCity(raw: string): City {
  const city = findCity(raw);
  if (city) return city;
  const near = suggest(raw);
  // The name the client sent is not repeated back: it may be anything.
  if (near) {
    throw new ProblemError('city_not_found', 'Unknown city.', `Did you mean "${near.slug}"? GET /api/v1/cities lists all canonical slugs.`, {
      suggestion: near.slug,
    });
  }
  throw new ProblemError('city_not_found', 'Unknown city.', `GET /api/v1/cities lists all ${CITIES.length} canonical city slugs.`);
}
