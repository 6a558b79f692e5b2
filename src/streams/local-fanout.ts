import { IdClock, isOlder, type EventContent, type StreamEvent } from './event.ts';
import type { Fanout } from './fanout.ts';

/** How long a key's history outlives its last subscriber, so a reconnect soon after still resumes. */
const KEEP_MS = 10 * 60_000;

interface History {
  events: StreamEvent[];
  deliver: ((e: StreamEvent) => void) | null;
  expires: NodeJS.Timeout | null;
}

/** One instance on its own: the last `size` events per key in a ring, delivered in process. */
export class LocalFanout implements Fanout {
  private readonly keys = new Map<string, History>();
  private readonly ids = new IdClock();

  private readonly size: number;
  constructor(size: number) {
    this.size = size;
  }

  private history(key: string): History {
    let h = this.keys.get(key);
    if (!h) this.keys.set(key, (h = { events: [], deliver: null, expires: null }));
    return h;
  }

  /** `after`: an id the new event must be newer than (the last one a stream of the key got from elsewhere). */
  async append(key: string, content: EventContent, after?: string): Promise<StreamEvent> {
    const h = this.history(key);
    const last = h.events.at(-1);
    if (last && (last.hash === content.hash || isOlder(content, last))) return last;
    const e: StreamEvent = { id: this.ids.next(after), ...content };
    h.events.push(e);
    if (h.events.length > this.size) h.events.shift();
    h.deliver?.(e);
    return e;
  }

  async latest(key: string): Promise<StreamEvent | null> {
    return this.keys.get(key)?.events.at(-1) ?? null;
  }

  async after(key: string, id: string): Promise<StreamEvent[] | null> {
    const events = this.keys.get(key)?.events ?? [];
    const at = events.findIndex((e) => e.id === id);
    return at < 0 ? null : events.slice(at + 1);
  }

  async listen(key: string, deliver: (e: StreamEvent) => void): Promise<void> {
    const h = this.history(key);
    if (h.expires) clearTimeout(h.expires);
    h.expires = null;
    h.deliver = deliver;
  }

  async unlisten(key: string): Promise<void> {
    const h = this.keys.get(key);
    if (!h) return;
    h.deliver = null;
    h.expires = setTimeout(() => this.keys.delete(key), KEEP_MS).unref();
  }

  async claimPoll(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    for (const h of this.keys.values()) if (h.expires) clearTimeout(h.expires);
    this.keys.clear();
  }
}
