import { toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { CivilProtectionWarning, CivilProtectionWarningDetail } from '../../core/records/safety.ts';

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

const optText = z.string().nullish();

/**
 * `GET /dashboard/{ARS}.json`: an item is a warning only with its id and its payload's data (every provider's item carries both);
 * everything else in it may be absent.
 */
const DashboardShape = z.array(
  z.looseObject({
    id: z.string(),
    payload: z.looseObject({
      data: z.looseObject({
        headline: optText,
        provider: optText,
        severity: optText,
        msgType: optText,
        transKeys: z.looseObject({ event: optText }).nullish(),
      }),
    }),
    i18nTitle: z.looseObject({ de: optText }).nullish(),
    sent: optText,
    onset: optText,
    expires: optText,
  }),
);

/** `GET /warnings/{id}.json`, a CAP 1.2 message as JSON: at least one info block; its members are each optional in CAP 1.2. */
const DetailShape = z.looseObject({
  info: z
    .array(
      z.looseObject({
        language: optText,
        category: z.array(z.string()).nullish(),
        event: optText,
        urgency: optText,
        certainty: optText,
        description: optText,
        instruction: optText,
        contact: optText,
        web: optText,
        parameter: z.array(z.looseObject({ valueName: optText, value: optText })).nullish(),
        area: z.array(z.looseObject({ areaDesc: optText })).nullish(),
      }),
    )
    .min(1),
});

/**
 * The dashboard's warnings, texts verbatim. Items whose expiry has passed are left out: the
 * dashboard can lag behind, and an expired warning is not active.
 */
export function parseDashboard(body: unknown, now: Date): CivilProtectionWarning[] {
  const out: CivilProtectionWarning[] = [];
  for (const item of shaped(DashboardShape, body, 'NINA dashboard')) {
    const data = item.payload.data;
    const end = zoned(item.expires);
    if (end && Date.parse(end) < now.getTime()) continue;
    out.push({
      id: item.id,
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
  const info = shaped(DetailShape, body, 'NINA warning detail').info;
  const de = info.find((i) => i.language?.toUpperCase().startsWith('DE')) ?? info[0]!;
  const param = (name: string) => str(de.parameter?.find((p) => p.valueName === name)?.value);
  return {
    event: str(de.event),
    category: de.category ?? [],
    urgency: str(de.urgency),
    certainty: str(de.certainty),
    description: str(de.description),
    instruction: str(de.instruction),
    contact: str(de.contact),
    web: str(de.web),
    sender_name: param('sender_langname'),
    areas: (de.area ?? []).map((a) => str(a.areaDesc)).filter((a): a is string => a !== null),
  };
}
