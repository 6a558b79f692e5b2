import type { FloodGauge } from '../../core/records/water.ts';
import { berlinLocalToDate, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { parseNumber } from '../../core/numbers.ts';

/** The token the home page hands to its gauge layer: `addLagePegel(884284296001)`. */
export function extractToken(html: string): string | null {
  // The marker also opens the function definition (`addLagePegel(ki)`), so only digits count.
  for (const m of html.matchAll(/addLagePegel\(\s*(\d+)\s*\)/g)) return m[1] ?? null;
  return null;
}

/** get_infospegel.php: one flat object per gauge, values as German text. */
export interface InfosPegel {
  PN?: string;
  GW?: string;
  URL_PEGEL?: string;
  HW?: string | number;
  HW_TXT?: string;
  ZEIT?: string;
  W?: string;
  Q?: string;
  HINT?: string;
  URL_LAND?: string;
  ID_LAND?: string;
}

/**
 * ZEIT is German text relative to the day: "Heute, 18:00 Uhr", "Gestern, 23:45 Uhr", or a date
 * "24.11.2026, 18:00 Uhr". Read against the Berlin calendar day of `now`.
 */
export function lhpTime(text: string | undefined, now: Date): string | null {
  if (!text) return null;
  const t = text.trim();
  const [, hour, minute] = /(\d{1,2}):(\d{2})/.exec(t) ?? [];
  if (hour === undefined || minute === undefined) return null;
  const today = toBerlinIso(now).slice(0, 10);
  let day: string | null = null;
  if (/^heute/i.test(t)) day = today;
  else if (/^gestern/i.test(t)) {
    const d = new Date(`${today}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - 1);
    day = d.toISOString().slice(0, 10);
  } else {
    const date = /(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(t);
    const [, dd, mm, yyyy] = date ?? [];
    if (dd !== undefined && mm !== undefined && yyyy !== undefined) day = `${yyyy}-${mm.padStart(2, '0')}-${dd.padStart(2, '0')}`;
  }
  if (!day) return null;
  const [y, mo, d] = day.split('-').map(Number);
  if (y === undefined || mo === undefined || d === undefined) return null;
  return toBerlinIso(berlinLocalToDate(y, mo, d, Number(hour), Number(minute)));
}

const clean = (s: unknown) => (typeof s === 'string' && s.trim() !== '' ? s.trim() : null);

/** The answer body: null when the gauge number is unknown to LHP (an object without gauge fields). */
export function parseInfosPegel(body: string, gaugeId: string, now: Date): FloodGauge | null {
  let o: unknown;
  try {
    o = JSON.parse(body);
  } catch {
    throw new UpstreamError('parse', 'LHP get_infospegel.php answer is not JSON');
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return null;
  const p = o as InfosPegel;
  if (p.PN === undefined && p.HW === undefined) return null;
  const hw = p.HW === undefined || p.HW === null || p.HW === '' ? null : Number(p.HW);
  const level = hw !== null && Number.isInteger(hw) && hw >= 0 && hw <= 4 ? hw : null;
  return {
    gauge_id: gaugeId,
    name: clean(p.PN),
    water: clean(p.GW),
    warning_level: level,
    warning_label: clean(p.HW_TXT),
    water_level_cm: parseNumber(p.W, { unit: /cm/ }),
    water_level_text: clean(p.W),
    discharge_m3s: parseNumber(p.Q, { unit: /m(?:3|³)\/s/ }),
    discharge_text: clean(p.Q),
    measured_at: lhpTime(p.ZEIT, now),
    stand_text: clean(p.ZEIT),
    hint: clean(p.HINT),
    gauge_url: clean(p.URL_PEGEL),
    state: clean(p.ID_LAND),
    state_url: clean(p.URL_LAND),
  };
}
