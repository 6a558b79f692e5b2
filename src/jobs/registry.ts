import type { ScheduledJob } from './scheduler.ts';

/** Every background job of the service (pollers and precomputes). */
export const JOBS: ScheduledJob[] = [];
