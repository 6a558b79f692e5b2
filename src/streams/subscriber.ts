import type { ServerResponse } from 'node:http';
import { compareIds, isOlder, type StreamEvent } from './event.ts';
import { eventFrame, shutdownFrame } from './sse.ts';

/**
 * One open stream. Until its first events are sent (`flush`), changes that arrive are held back,
 * so a change during the start is neither lost nor sent twice; after that every event newer than
 * the last one sent goes out at once. A reader that lets more than `maxBuffered` bytes wait unsent
 * is cut off: its socket is destroyed rather than its events buffered without bound.
 */
export class Subscriber {
  private lastId: string | null = null;
  private lastHash: string | null = null;
  /** The data time of the last event sent: an event with older data is no change for this client. */
  private lastData: Pick<StreamEvent, 'asOfMs' | 'fetchedMs'> | null = null;
  private pending: StreamEvent[] | null = [];
  closed = false;

  private readonly res: ServerResponse;
  private readonly maxBuffered: number;
  /** The stream's `retry` (ms), repeated in the shutdown event. */
  private readonly retryMs: number;
  constructor(res: ServerResponse, maxBuffered: number, retryMs: number) {
    this.res = res;
    this.maxBuffered = maxBuffered;
    this.retryMs = retryMs;
  }

  /** Writes a frame, or drops the stream when the bytes it has not taken yet are past the bound. */
  write(frame: string | Buffer): void {
    if (this.closed) return;
    if (this.res.writableLength > this.maxBuffered) {
      this.closed = true;
      this.res.destroy();
      return;
    }
    this.res.write(frame);
  }

  /**
   * Sends an event newer than the last one sent (`reset`: a fresh start after an unknown resume id).
   * An event with the content of the last one sent is no change and is not sent: the same envelope
   * appended again under a new id, as when Redis returns after this instance streamed without it.
   * Nor is one whose data is older than the last one sent (event.ts isOlder): a copy another
   * instance kept while Redis was away, appended to the Redis stream that came back empty.
   */
  send(e: StreamEvent, name?: 'reset'): void {
    if (this.lastId !== null && compareIds(e.id, this.lastId) <= 0) return;
    this.lastId = e.id;
    if (name === undefined && (e.hash === this.lastHash || (this.lastData !== null && isOlder(e, this.lastData)))) return;
    this.lastHash = e.hash;
    this.lastData = e;
    this.write(eventFrame(e, name));
  }

  /** A resume: the client has `id`; these are the events after it. */
  resumeAfter(id: string, missed: readonly StreamEvent[]): void {
    this.lastId = id;
    for (const e of missed) this.send(e);
  }

  /** A change from the fanout: held back while the first events are not out yet. */
  offer(e: StreamEvent): void {
    if (this.pending) this.pending.push(e);
    else this.send(e);
  }

  /** The first events are out: what arrived meanwhile follows, each at most once. */
  flush(): void {
    const held = this.pending ?? [];
    this.pending = null;
    for (const e of held) this.send(e);
  }

  /** Shutdown: a final `shutdown` event, then the stream ends; EventSource reconnects after its `retry`. */
  end(): void {
    if (this.closed) return;
    this.write(shutdownFrame(this.retryMs));
    this.closed = true;
    this.res.end();
  }
}
