import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { WeatherWarningsRecord } from '../../core/records/weather.ts';

const optText = z.string().nullish();
const optTime = z
  .string()
  .refine((t) => Number.isFinite(Date.parse(t)), 'not a time')
  .nullish();

/** One DWD CAP warning as Bright Sky relays it; every text may be missing (null in the record), the id may not. */
const AlertShape = z.looseObject({
  alert_id: z.string(),
  status: optText,
  effective: optTime,
  onset: optTime,
  expires: optTime,
  category: optText,
  response_type: optText,
  urgency: optText,
  severity: optText,
  certainty: optText,
  event_code: z.number().int().nullish(),
  event_en: optText,
  event_de: optText,
  headline_en: optText,
  headline_de: optText,
  description_en: optText,
  description_de: optText,
  instruction_en: optText,
  instruction_de: optText,
});

/**
 * Bright Sky `/alerts`: DWD CAP warnings of one municipality cell (COMMUNEUNION_DWD_STAT). A cell without a warning
 * answers `alerts: []` (recorded), so a missing `alerts` array is drift, never "no warning".
 */
const AlertsShape = z.looseObject({
  alerts: z.array(AlertShape),
  location: z
    .looseObject({ warn_cell_id: z.number().int(), name: optText, name_short: optText, district: optText, state: optText, state_short: optText })
    .nullish(),
});
export type BrightSkyAlertsBody = z.input<typeof AlertsShape>;

const zoned = (v: string | null | undefined): string | null => (v ? toBerlinIso(v) : null);

/**
 * Warnings as DWD issued them. DWD forbids altering warnings, so every text is passed through
 * verbatim in both languages; only field names and time zones are adapted. Test messages
 * (status "test", reported since Bright Sky 2.1.9) are not warnings and are left out.
 */
export function parseAlerts(answer: unknown): WeatherWarningsRecord {
  const body = shaped(AlertsShape, answer, 'Bright Sky alerts');
  const warnings = body.alerts
    .filter((a) => a.status !== 'test')
    .map((a) => ({
      id: a.alert_id,
      status: a.status ?? 'actual',
      category: a.category ?? null,
      event_code: a.event_code ?? null,
      event_de: a.event_de ?? null,
      event_en: a.event_en ?? null,
      severity: a.severity ?? null,
      urgency: a.urgency ?? null,
      certainty: a.certainty ?? null,
      response_type: a.response_type ?? null,
      headline_de: a.headline_de ?? null,
      headline_en: a.headline_en ?? null,
      description_de: a.description_de ?? null,
      description_en: a.description_en ?? null,
      instruction_de: a.instruction_de ?? null,
      instruction_en: a.instruction_en ?? null,
      effective_at: zoned(a.effective),
      start: zoned(a.onset),
      end: zoned(a.expires),
    }));
  const loc = body.location ?? null;
  return {
    warn_cell: loc
      ? {
          id: loc.warn_cell_id,
          name: loc.name ?? null,
          name_short: loc.name_short ?? null,
          district: loc.district ?? null,
          state: loc.state ?? null,
          state_short: loc.state_short ?? null,
        }
      : null,
    warnings,
  };
}

/** DWD municipality warn cell: "8" + the 8-digit AGS (e.g. Göttingen 03159016 -> 803159016). */
export function municipalityWarnCell(ags: string): string {
  return `8${ags}`;
}
