import type { Config } from '../../core/config.ts';
import type { UpstreamError } from '../../core/upstream-error.ts';

/** The messages between the app and a GTFS child process (src/gtfs-child.ts). */
export type ChildTask = { task: 'poll'; ttlMs: number; nowMs?: number } | { task: 'static' };
export type ChildRequest = ChildTask & { id: number; config: Omit<Config, 'sourceList'>; storePath: string | null };
export type ChildReply = { id: number; ok: unknown } | { id: number; error: { message: string; kind?: UpstreamError['kind']; status?: number } };
