import type { DataType } from '../core/data-type.ts';
import { formsOf, type Form } from '../core/forms.ts';
import type { SourceDecl } from '../core/source.ts';
import type { Runtime } from './runtime.ts';

/**
 * What a source does on this server now, as the aggregates (overview, coverage, health, landing)
 * tell it: configured is not answering.
 * - `disabled`: switched off or without its credentials;
 * - `answering`: its latest call succeeded and its breaker is closed;
 * - `failing`: its latest call failed, its breaker is open, or its answers drift from their format;
 * - `untried`: usable, but not called since this instance started (nothing is known yet).
 */
export type SourceState = 'disabled' | 'answering' | 'failing' | 'untried';

/** The state of every source, looked up once per aggregate answer (breaker state may ask the shared store). */
export async function sourceStates(rt: Runtime, sources: readonly SourceDecl[] = rt.config.sourceList): Promise<Map<string, SourceState>> {
  const states = await Promise.all(sources.map((s) => stateOfSource(rt, s)));
  return new Map(sources.map((s, i) => [s.id, states[i]!]));
}

async function stateOfSource(rt: Runtime, src: SourceDecl): Promise<SourceState> {
  if (!rt.sourceEnabled(src)) return 'disabled';
  if ((await rt.breakers.state(src)) === 'OPEN' || rt.health.drift.view(src.id) !== null) return 'failing';
  const last = rt.health.latest(src.id);
  if (last.success === null && last.failure === null) return 'untried';
  return (last.failure ?? 0) > (last.success ?? 0) ? 'failing' : 'answering';
}

/** The state of a primary's form (core/forms.ts): its answering source's (its stand-in's when that answers), or disabled. */
export function stateOfForm(rt: Runtime, form: Form, states: ReadonlyMap<string, SourceState>): SourceState {
  const answering = rt.answering(form);
  return answering ? (states.get(answering.source.id) ?? 'untried') : 'disabled';
}

/** How many of each state, every state present (0 where none). */
export function countStates(states: Iterable<SourceState>): Record<SourceState, number> {
  const counts: Record<SourceState, number> = { answering: 0, failing: 0, untried: 0, disabled: 0 };
  for (const s of states) counts[s]++;
  return counts;
}

/** Whether a data type answers anywhere on this server: some primary (or its stand-in) is usable. */
export function answersSomewhere(rt: Runtime, dt: DataType): boolean {
  return formsOf(dt).some((form) => rt.answering(form) !== null);
}
