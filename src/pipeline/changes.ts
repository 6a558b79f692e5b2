/**
 * A version that moves whenever something a composed view shows may have changed: a cache write or
 * a failed refresh, a source's success or failure, a breaker closing. Prepared views
 * (http/prepared-views.ts) are served again only while it stands still.
 */
export class Changes {
  private n = 0;
  get version(): number {
    return this.n;
  }
  note(): void {
    this.n++;
  }
}
