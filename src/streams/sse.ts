import type { StreamEvent } from './event.ts';

/** The heartbeat: a comment line, which EventSource ignores and proxies count as traffic. */
export const HEARTBEAT = Buffer.from(': hb\n\n');

/** The `retry:` field: how long EventSource waits before it reconnects (ms). */
export function retryFrame(ms: number): string {
  return `retry: ${Math.round(ms)}\n\n`;
}

/**
 * The last frame of a stream this instance ends because it shuts down: an event without an id (the
 * client's Last-Event-ID stays its last change, so the reconnect resumes there) saying so, and the
 * reconnect delay again.
 */
export function shutdownFrame(retryMs: number): string {
  const ms = Math.round(retryMs);
  return `retry: ${ms}\nevent: shutdown\ndata: {"reason":"this instance is shutting down; reconnect with Last-Event-ID","retry_ms":${ms}}\n\n`;
}

/**
 * One event in the text/event-stream format. `name` is left out for a normal change (EventSource's
 * `message`); `reset` marks a fresh start after a resume point the history no longer holds. The
 * body is JSON on one line; should it ever hold a line break, each line becomes its own `data:`
 * field, which the client joins back with the same line break.
 */
export function eventFrame(e: StreamEvent, name?: 'reset'): Buffer {
  if (name) return encode(e, name);
  let frame = frames.get(e);
  if (!frame) frames.set(e, (frame = encode(e)));
  return frame;
}

/** A change goes to every subscriber of its key: encoded once, not once per subscriber. */
const frames = new WeakMap<StreamEvent, Buffer>();

function encode(e: StreamEvent, name?: 'reset'): Buffer {
  const data = e.body.includes('\n') ? e.body.split(/\r?\n/).join('\ndata: ') : e.body;
  return Buffer.from(`${name ? `event: ${name}\n` : ''}id: ${e.id}\ndata: ${data}\n\n`);
}

/** The response head of a stream: never cached, never buffered by a proxy (nginx reads X-Accel-Buffering). */
export const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};
