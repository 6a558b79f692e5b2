/**
 * One change of a stream key: the envelope as sent, the hash it is compared by, and an id of the
 * form `<ms>-<seq>` (Redis stream ids have it too), so that ids from one instance and from Redis
 * order the same way.
 */
export interface StreamEvent {
  readonly id: string;
  /** Content hash of the envelope without its per-request and per-fetch members (see hub.ts). */
  readonly hash: string;
  /** The envelope JSON. */
  readonly body: string;
  /** When its data was fetched (ms, exact: not the second-precision fetched_at of the envelope). */
  readonly fetchedMs: number;
  /** The time its data speaks for (ms): the envelope's as_of, or fetchedMs when it has none. */
  readonly asOfMs: number;
}

/** What an event carries besides its id: what an instance hands the fanout to append. */
export type EventContent = Omit<StreamEvent, 'id'>;

/**
 * Whether `e` holds older data than `than`: an earlier as_of, or the same as_of fetched earlier (a copy an
 * instance kept while another fetched anew). Such an envelope is never a change: appending it would take the
 * stream back, and the newer one would then come again as a further change.
 */
export function isOlder(e: Pick<StreamEvent, 'asOfMs' | 'fetchedMs'>, than: Pick<StreamEvent, 'asOfMs' | 'fetchedMs'>): boolean {
  return e.asOfMs < than.asOfMs || (e.asOfMs === than.asOfMs && e.fetchedMs < than.fetchedMs);
}

const ID = /^(\d{1,15})-(\d{1,15})$/;

/** Whether a client-sent id (Last-Event-ID) has the form of an event id. */
export function isEventId(id: string): boolean {
  return ID.test(id);
}

/** Orders two event ids (negative: a is older). */
export function compareIds(a: string, b: string): number {
  const [ma = '0', sa = '0'] = a.split('-');
  const [mb = '0', sb = '0'] = b.split('-');
  return Number(ma) - Number(mb) || Number(sa) - Number(sb);
}

/**
 * Increasing ids within one process: the clock's milliseconds, a sequence within one millisecond;
 * `after` (an id from elsewhere, e.g. Redis) raises the floor, so the next id is newer than it too.
 */
export class IdClock {
  private ms = 0;
  private seq = 0;
  next(after?: string): string {
    if (after !== undefined && isEventId(after) && compareIds(after, `${this.ms}-${this.seq}`) > 0) {
      const [ms = '0', seq = '0'] = after.split('-');
      this.ms = Number(ms);
      this.seq = Number(seq);
    }
    const now = Date.now();
    if (now > this.ms) {
      this.ms = now;
      this.seq = 0;
    } else this.seq++;
    return `${this.ms}-${this.seq}`;
  }
}
