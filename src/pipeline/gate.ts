import { coveredCities } from '../core/data-type.ts';
import { emptyOutcome, type Outcome } from './envelope.ts';
import type { Resolved } from './resolve.ts';
import type { Runtime } from './runtime.ts';

/**
 * Stage 2 of the request path: whether the request may be answered here at all. A city the type
 * does not cover is `not_covered` (with meta.covered_cities); a source switched off or without
 * its credentials, and no usable stand-in, is `disabled` (with the reason). Null: go on.
 */
export function gate(rt: Runtime, r: Resolved): Outcome | null {
  const covered = coveredCities(r.declared);
  if (r.city && covered && !covered.includes(r.city.slug)) {
    const note = r.form.coverage?.note ?? `served for ${covered.join(', ')} only`;
    return emptyOutcome(r.city, 'not_covered', { ...r.meta, covered_cities: [...covered].sort(), note });
  }
  if (r.answering === null) return emptyOutcome(r.city, 'disabled', { ...r.meta, disabled_reason: disabledReason(rt, r.form.source) });
  return null;
}

/** Why a source is unusable: switched off (its declared reason, or the setting) or credentials missing. */
export function disabledReason(rt: Runtime, source: Resolved['form']['source']): string {
  const settings = rt.settings(source);
  if (!settings.enabled) return source.offReason ?? `source switched off (${source.env}_ENABLED=false)`;
  return `server credentials missing: ${settings.missingCredentials.join(', ')}`;
}
