/**
 * Splits a street that carries its house number ("Luisenstraße 2f", "SPESSARTSTR. 22-24") into
 * street and house number; a street without a trailing number ("Am Markt", "B 27") stays whole.
 */
export function splitStreet(s: string | null | undefined): { street: string | null; house_number: string | null } {
  const v = (s ?? '').trim();
  if (!v) return { street: null, house_number: null };
  const m = /^(.*?[^\d\s])\s+(\d+\s?[a-zA-Z]?(?:\s?[-/]\s?\d+\s?[a-zA-Z]?)?)$/.exec(v);
  // "B 27" or "Straße 1": a road number after a one-letter name is no house number.
  if (!m?.[1] || !m[2] || m[1].length < 3) return { street: v, house_number: null };
  return { street: m[1].trim(), house_number: m[2].replace(/\s+/g, '') };
}
