import type { CacheStatus, CacheWindows } from '../core/data-type.ts';

export function cacheControlFor(windows: CacheWindows | 'stored', live: boolean): string {
  if (live) return 'public, max-age=15, stale-while-revalidate=15';
  if (windows === 'stored') return 'public, max-age=300, stale-while-revalidate=300';
  const maxAge = Math.min(windows.freshSeconds, 3600);
  return `public, max-age=${maxAge}, stale-while-revalidate=${Math.min(windows.staleSeconds, 86400)}, stale-if-error=86400`;
}

/** RFC 9211 mirror of meta.cache_status. */
export function cacheStatusHeader(s: CacheStatus): string {
  switch (s) {
    case 'HIT':
      return 'stadtdaten; hit';
    case 'MISS':
      return 'stadtdaten; fwd=miss; stored';
    case 'STALE':
      return 'stadtdaten; hit; detail="revalidating"';
    case 'STALE-ON-ERROR':
      return 'stadtdaten; fwd=stale; detail="stale-on-error"';
  }
}

export const META_CACHE_CONTROL = 'public, max-age=60';
