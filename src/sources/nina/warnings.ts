import { toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { CivilProtectionWarning, CivilProtectionWarningDetail } from '../../core/records/safety.ts';

/** One item of `GET /dashboard/{ARS}.json`. */
export interface NinaDashboardItem {
  id?: string;
  payload?: {
    type?: string;
    id?: string;
    data?: {
      headline?: string;
      provider?: string;
      severity?: string;
      msgType?: string;
      transKeys?: { event?: string };
    };
  };
  i18nTitle?: { de?: string };
  sent?: string;
  onset?: string;
  expires?: string;
}

interface CapValue {
  valueName?: string;
  value?: string;
}

/** `GET /warnings/{id}.json`: a CAP 1.2 message as JSON. */
export interface NinaWarningDetail {
  identifier?: string;
  info?: {
    language?: string;
    category?: string[];
    event?: string;
    urgency?: string;
    certainty?: string;
    headline?: string;
    description?: string;
    instruction?: string;
    contact?: string;
    web?: string;
    parameter?: CapValue[];
    area?: { areaDesc?: string }[];
  }[];
}

/** NINA dashboards are per district: the 12-digit ARS with the last seven digits zero. */
export function dashboardArs(ars: string): string {
  return ars.slice(0, 5).padEnd(12, '0');
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const zoned = (v: unknown): string | null => {
  const s = str(v);
  if (!s) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? toBerlinIso(t) : null;
};

/**
 * The dashboard's warnings, texts verbatim. Items whose expiry has passed are left out: the
 * dashboard can lag behind, and an expired warning is not active.
 */
export function parseDashboard(body: unknown, now: Date): CivilProtectionWarning[] {
  if (!Array.isArray(body)) throw new UpstreamError('parse', 'NINA dashboard is not a JSON array');
  const out: CivilProtectionWarning[] = [];
  for (const item of body as NinaDashboardItem[]) {
    const data = item?.payload?.data;
    const id = str(item?.id) ?? str(item?.payload?.id);
    if (!id || !data) continue;
    const end = zoned(item.expires);
    if (end && Date.parse(end) < now.getTime()) continue;
    out.push({
      id,
      provider: str(data.provider),
      message_type: str(data.msgType),
      severity: str(data.severity),
      event_code: str(data.transKeys?.event),
      headline: str(data.headline) ?? str(item.i18nTitle?.de),
      sent: zoned(item.sent),
      start: zoned(item.onset),
      end,
      detail: null,
    });
  }
  return out;
}

/** The German `info` block of a CAP message, texts verbatim. */
export function parseDetail(body: unknown): CivilProtectionWarningDetail {
  const info = (body as NinaWarningDetail | null)?.info;
  if (!Array.isArray(info) || info.length === 0) throw new UpstreamError('parse', 'NINA warning detail without an info block');
  const de = info.find((i) => i?.language?.toUpperCase().startsWith('DE')) ?? info[0];
  if (!de) throw new UpstreamError('parse', 'NINA warning detail without an info block');
  const param = (name: string) => str(de.parameter?.find((p) => p?.valueName === name)?.value);
  return {
    event: str(de.event),
    category: Array.isArray(de.category) ? de.category.filter((c): c is string => typeof c === 'string') : [],
    urgency: str(de.urgency),
    certainty: str(de.certainty),
    description: str(de.description),
    instruction: str(de.instruction),
    contact: str(de.contact),
    web: str(de.web),
    sender_name: param('sender_langname'),
    areas: (de.area ?? []).map((a) => str(a?.areaDesc)).filter((a): a is string => a !== null),
  };
}
