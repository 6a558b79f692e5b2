import type { City } from '../../src/cities/register.ts';
import type { Runtime } from '../../src/pipeline/runtime.ts';
import type { ScheduledJob } from '../../src/core/job.ts';
import { createPoisJob, POIS_PRECOMPUTE_JOB } from '../../src/jobs/pois-precompute.ts';
import { createPlacesJob, PLACES_PRECOMPUTE_JOB } from '../../src/jobs/places-precompute.ts';

/** What one run of a reading's jobs left behind: the failure (if one threw) and the lines they logged. */
export interface JobRun {
  name: string;
  error: unknown;
  lines: string[];
}

/**
 * Stored data types are answered from what their jobs wrote, so the check runs a reading's jobs
 * once, in the order the reading names them (the GTFS static index before the poller that reads
 * it), with their real download and parser, into the check's own in-memory store, and then reads
 * the type. The per-city precomputes run for the checked cities only, with one attempt per query.
 */
export class JobRunner {
  private readonly runs = new Map<string, Promise<JobRun>>();

  private readonly rt: Runtime;
  /** The cities whose rows read what these jobs write. */
  private readonly citiesOf: (jobs: readonly ScheduledJob[]) => readonly City[];
  constructor(rt: Runtime, citiesOf: (jobs: readonly ScheduledJob[]) => readonly City[]) {
    this.rt = rt;
    this.citiesOf = citiesOf;
  }

  run(jobs: readonly ScheduledJob[]): Promise<JobRun> {
    const name = jobs.map((j) => j.name).join('+');
    let p = this.runs.get(name);
    if (!p) {
      p = this.start(name, jobs);
      this.runs.set(name, p);
    }
    return p;
  }

  private async start(name: string, jobs: readonly ScheduledJob[]): Promise<JobRun> {
    const lines: string[] = [];
    const signal = new AbortController().signal;
    try {
      for (const job of this.forChecked(jobs)) await job.run(this.rt, (msg) => lines.push(msg), signal);
      return { name, error: null, lines };
    } catch (error) {
      return { name, error, lines };
    }
  }

  /** The per-city precomputes, limited to the checked cities and one attempt per query; the other jobs as they are. */
  private forChecked(jobs: readonly ScheduledJob[]): ScheduledJob[] {
    const once = { cities: this.citiesOf(jobs), maxRetries: 0, pauseMs: 0 };
    return jobs.map((job) => (job === POIS_PRECOMPUTE_JOB ? createPoisJob(once) : job === PLACES_PRECOMPUTE_JOB ? createPlacesJob(once) : job));
  }
}

/** A job's failure line for a city (`pois: berlin failed: …`), when its log has one. */
export function failureLine(run: JobRun, city: City | null): string | null {
  const failed = run.lines.filter((l) => / failed: /.test(l));
  return (city ? failed.find((l) => l.includes(` ${city.slug} failed: `)) : undefined) ?? failed[0] ?? null;
}
