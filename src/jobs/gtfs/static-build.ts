import type { JobHost } from '../../core/job.ts';
import { GTFS_DE, STATIC_MAX_BYTES, STATIC_TIMEOUT_MS } from '../../sources/gtfs/source.ts';
import { buildStaticIndex } from '../../sources/gtfs/static-index-build.ts';
import { staticIndexPath, type StaticMeta } from '../../sources/gtfs/static-index.ts';

/**
 * Downloads the static GTFS zip and builds the on-disk index (atomically replaced), wherever it
 * runs: a process that reads the index reopens it afterwards (gtfs-static.ts).
 */
export async function downloadStaticIndex(rt: JobHost, signal?: AbortSignal): Promise<StaticMeta> {
  const http = rt.http(GTFS_DE);
  const url = http.url('static');
  const res = await http.request('', { base: url, maxBytes: STATIC_MAX_BYTES, timeoutMs: STATIC_TIMEOUT_MS, signal });
  return buildStaticIndex(res.body, staticIndexPath(rt.config), url);
}
