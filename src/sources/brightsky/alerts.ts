import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { WeatherWarningsRecord } from '../../core/records/weather.ts';

/** Bright Sky `/alerts`: DWD CAP warnings of one municipality cell (COMMUNEUNION_DWD_STAT). */
export interface BrightSkyAlert {
  id: number;
  alert_id: string;
  status?: 'actual' | 'test' | null;
  effective: string;
  onset: string;
  expires: string | null;
  category: string | null;
  response_type: string | null;
  urgency: string | null;
  severity: string | null;
  certainty: string | null;
  event_code: number | null;
  event_en: string | null;
  event_de: string | null;
  headline_en: string | null;
  headline_de: string | null;
  description_en: string | null;
  description_de: string | null;
  instruction_en: string | null;
  instruction_de: string | null;
}
export interface BrightSkyAlertsBody {
  alerts: BrightSkyAlert[];
  location?: { warn_cell_id: number; name: string; name_short: string; district: string; state: string; state_short: string } | null;
}

const zoned = (v: string | null | undefined): string | null => (v ? toBerlinIso(v) : null);

/**
 * Warnings as DWD issued them. DWD forbids altering warnings, so every text is passed through
 * verbatim in both languages; only field names and time zones are adapted. Test messages
 * (status "test", reported since Bright Sky 2.1.9) are not warnings and are left out.
 */
export function parseAlerts(body: BrightSkyAlertsBody): WeatherWarningsRecord {
  if (!body || !Array.isArray(body.alerts)) throw new UpstreamError('parse', 'Bright Sky alerts without an alerts array');
  const warnings = body.alerts
    .filter((a) => a.status !== 'test')
    .map((a) => ({
      id: a.alert_id,
      status: a.status ?? 'actual',
      category: a.category,
      event_code: a.event_code,
      event_de: a.event_de,
      event_en: a.event_en,
      severity: a.severity,
      urgency: a.urgency,
      certainty: a.certainty,
      response_type: a.response_type,
      headline_de: a.headline_de,
      headline_en: a.headline_en,
      description_de: a.description_de,
      description_en: a.description_en,
      instruction_de: a.instruction_de,
      instruction_en: a.instruction_en,
      effective_at: zoned(a.effective),
      start: zoned(a.onset),
      end: zoned(a.expires),
    }));
  const loc = body.location ?? null;
  return {
    warn_cell: loc
      ? { id: loc.warn_cell_id, name: loc.name, name_short: loc.name_short, district: loc.district, state: loc.state, state_short: loc.state_short }
      : null,
    warnings,
  };
}

/** DWD municipality warn cell: "8" + the 8-digit AGS (e.g. Göttingen 03159016 -> 803159016). */
export function municipalityWarnCell(ags: string): string {
  return `8${ags}`;
}
