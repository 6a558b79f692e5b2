import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The operator's last `npm run check-upstreams`, as it writes it to CHECK_UPSTREAMS_RESULT_PATH: per
 * source the date of the run, its verdict (the worst that matters: a parse or HTTP error before ok,
 * ok before no_data and disabled) and the count of checks per verdict. Read by /api/v1/sources.
 */
export const CHECK_VERDICTS = ['parse_error', 'http_error', 'ok', 'no_data', 'disabled'] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

const SourceCheck = z.strictObject({
  checked_at: z.string(),
  verdict: z.enum(CHECK_VERDICTS),
  checks: z.number().int().nonnegative(),
  counts: z.record(z.enum(CHECK_VERDICTS), z.number().int().nonnegative()),
});
export type SourceCheck = z.infer<typeof SourceCheck>;

const ResultFile = z.strictObject({ checked_at: z.string(), sources: z.record(z.string(), SourceCheck) });
export type CheckResultFile = z.infer<typeof ResultFile>;

/** The file is written by a trusted script but read on a request path: a larger one is not read at all. */
const MAX_BYTES = 1024 * 1024;

/** One source's summary of a run's results (`{source, verdict}` per check). */
export function summariseChecks(results: readonly { source: string; verdict: string }[], checkedAt: Date): CheckResultFile {
  const sources: Record<string, SourceCheck> = {};
  for (const r of results) {
    if (!(CHECK_VERDICTS as readonly string[]).includes(r.verdict)) continue;
    const v = r.verdict as CheckVerdict;
    const s = (sources[r.source] ??= { checked_at: checkedAt.toISOString(), verdict: v, checks: 0, counts: {} as SourceCheck['counts'] });
    s.checks++;
    s.counts[v] = (s.counts[v] ?? 0) + 1;
    if (CHECK_VERDICTS.indexOf(v) < CHECK_VERDICTS.indexOf(s.verdict)) s.verdict = v;
  }
  return { checked_at: checkedAt.toISOString(), sources };
}

let cached: { path: string; mtimeMs: number; value: CheckResultFile | null } | null = null;

/** The last run's result, or null when none was recorded or the file is unreadable (never an error for the caller). */
export async function lastUpstreamCheck(path: string): Promise<CheckResultFile | null> {
  if (!path) return null;
  try {
    const st = await stat(path);
    if (!st.isFile() || st.size > MAX_BYTES) return null;
    if (cached && cached.path === path && cached.mtimeMs === st.mtimeMs) return cached.value;
    const parsed = ResultFile.safeParse(JSON.parse(await readFile(path, 'utf8')));
    cached = { path, mtimeMs: st.mtimeMs, value: parsed.success ? parsed.data : null };
    return cached.value;
  } catch {
    return null;
  }
}
