import type { Adapter } from '../../core/data-type.ts';
import type { CivilProtectionWarningsRecord } from '../../core/records/safety.ts';
import { dashboardArs, parseDashboard, parseDetail } from './warnings.ts';

/** Detail messages fetched per answer at most; a dashboard rarely lists more. */
export const MAX_DETAILS = 20;

/** NINA `GET /dashboard/{ARS}.json`, and with `details=true` each warning's CAP message. */
export const civilProtectionWarnings: Adapter<CivilProtectionWarningsRecord> = async ({ city, http, params, now }) => {
  const ars = dashboardArs(city.ars);
  const warnings = parseDashboard(await http.json<unknown>('/dashboard/{ars}.json', { params: { ars } }), now);
  if (warnings.length === 0) return { data: null, status: 'no_data', meta: { reason: 'no active warning for this district', ars } };
  if (params.details === 'true') {
    for (const w of warnings.slice(0, MAX_DETAILS)) {
      // 404: withdrawn between the dashboard and this call; the dashboard item stays without detail.
      const res = await http.request('/warnings/{id}.json', { params: { id: w.id ?? '' }, okStatuses: [404] });
      if (res.status !== 404) w.detail = parseDetail(parseJson(res.body));
    }
  }
  return { data: { ars, warnings }, meta: { ars } };
};

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
