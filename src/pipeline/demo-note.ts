import { CITY_BY_SLUG, type City } from '../cities/register.ts';
import type { DataType } from '../core/data-type.ts';

/**
 * Demo mode serves recordings, each of its own place (the data type's example city, for some
 * types a few more). Another city then answers no_data, and says why: the demo has nothing
 * recorded there, and which city it has a recording of.
 */
export function demoNote(dt: DataType, city: City | null): string | null {
  const example = dt.example.city ? CITY_BY_SLUG.get(dt.example.city) : undefined;
  if (!city || !example || example.slug === city.slug) return null;
  return `the demo has no recording of ${dt.type} for ${city.name}; it has one for ${example.name}`;
}
