import { toBerlinIso } from '../core/time.ts';
import { Changes } from './changes.ts';
import { DriftLedger } from './format-drift.ts';

/** Last success and failure per source, for /sources. */
export class SourceHealth {
  /** Sources whose answers their adapters no longer understand (format drift). */
  readonly drift = new DriftLedger();
  /** Moves with every success and failure here, and with what the cache and breakers report (see Changes). */
  readonly changes = new Changes();
  private readonly last = new Map<string, { success: number | null; failure: number | null; error: string | null }>();

  private get(id: string) {
    let e = this.last.get(id);
    if (!e) {
      e = { success: null, failure: null, error: null };
      this.last.set(id, e);
    }
    return e;
  }
  success(id: string) {
    this.get(id).success = Date.now();
    this.changes.note();
  }
  failure(id: string, error: string) {
    const e = this.get(id);
    e.failure = Date.now();
    e.error = error;
    this.changes.note();
  }
  /** The times (ms) of the source's latest success and failure, null where none since start. */
  latest(id: string): { success: number | null; failure: number | null } {
    const e = this.get(id);
    return { success: e.success, failure: e.failure };
  }

  view(id: string) {
    const e = this.get(id);
    return {
      last_success: e.success ? toBerlinIso(e.success) : null,
      last_failure: e.failure ? toBerlinIso(e.failure) : null,
      last_error: e.error,
      format_drift: this.drift.view(id),
    };
  }
}
