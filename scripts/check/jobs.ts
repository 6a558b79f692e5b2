import type { City } from '../../src/cities/register.ts';
import type { Runtime } from '../../src/pipeline/runtime.ts';
import { jobsFor } from '../../src/jobs/registry.ts';
import { createPoisJob } from '../../src/jobs/pois-precompute.ts';
import { createPlacesJob, PLACES_JOB_NAME } from '../../src/jobs/places-precompute.ts';
import type { ScheduledJob } from '../../src/jobs/scheduler.ts';

/** What one run of a job left behind: its failure (if it threw) and the lines it logged. */
export interface JobRun {
  name: string;
  error: unknown;
  lines: string[];
}

/**
 * Stored data types are answered from what their job wrote, so the check runs the job once
 * (its real download and parser, into the check's own in-memory store) and then reads the type.
 * The per-city precomputes run for the checked cities only, with one attempt per query; a job
 * that needs another's output first (the GTFS-RT poller reads the static index) gets it run before.
 */
export class JobRunner {
  private readonly runs = new Map<string, Promise<JobRun>>();

  constructor(
    private readonly rt: Runtime,
    /** The cities whose rows read each job's output. */
    private readonly citiesOf: (job: string) => readonly City[],
  ) {}

  run(name: string): Promise<JobRun> {
    let p = this.runs.get(name);
    if (!p) {
      p = this.start(name);
      this.runs.set(name, p);
    }
    return p;
  }

  private async start(name: string): Promise<JobRun> {
    const lines: string[] = [];
    const jobs = this.jobsNamed(name);
    if (jobs.length === 0) return { name, error: new Error(`no job named ${name} in src/jobs/registry.ts`), lines };
    const signal = new AbortController().signal;
    try {
      for (const job of jobs) await job.run(this.rt, (msg) => lines.push(msg), signal);
      return { name, error: null, lines };
    } catch (error) {
      return { name, error, lines };
    }
  }

  private jobsNamed(name: string): ScheduledJob[] {
    const cities = this.citiesOf(name);
    const once = { cities, maxRetries: 0, pauseMs: 0 };
    if (name === 'pois-precompute') return [createPoisJob(once)];
    if (name === PLACES_JOB_NAME) return [createPlacesJob(once)];
    const all = jobsFor(this.rt.config);
    const job = all.find((j) => j.name === name);
    if (!job) return [];
    // The poller answers from the static timetable index that the static job builds.
    return name === 'gtfs-rt-poller' ? [...all.filter((j) => j.name.startsWith('gtfs-static@')), job] : [job];
  }
}

/** A job's failure line for a city (`pois: berlin failed: …`), when its log has one. */
export function failureLine(run: JobRun, city: City | null): string | null {
  const failed = run.lines.filter((l) => / failed: /.test(l));
  return (city ? failed.find((l) => l.includes(` ${city.slug} failed: `)) : undefined) ?? failed[0] ?? null;
}
