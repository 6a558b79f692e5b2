/**
 * One line of the attack suite's table (bench/attack/run.ts). Each probe in bench/attack/probes/ starts what it
 * needs (its own service, fake upstreams, stores in temp dirs), attacks it on loopback within a bounded number of
 * requests and time, stops everything it started, and returns its rows.
 */
export interface AttackRow {
  /** The probe's name, e.g. "host-fuzz". */
  readonly probe: string;
  /** What was measured, e.g. "RSS after GC, growth". */
  readonly measure: string;
  /** The figure with its unit, e.g. "4.2 MB". */
  readonly value: string;
  /** The bar it is held to and whether it held, e.g. "≤ 20 MB: held". */
  readonly verdict: string;
}

/** A probe module's one export. */
export type Probe = () => Promise<AttackRow[]>;
