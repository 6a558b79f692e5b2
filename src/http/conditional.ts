import { createHash } from 'node:crypto';

/** Strong ETag of a representation. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

/** RFC 9110 §13.1.2: weak comparison against a list of tags, or `*`. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const mine = opaque(etag);
  const tags = header.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((t) => opaque(t) === mine);
}

/** Strong ETag over a representation given in parts (hashed in order, without joining them first). */
export function etagOfParts(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return `"${h.digest('base64url').slice(0, 27)}"`;
}
