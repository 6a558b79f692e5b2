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
