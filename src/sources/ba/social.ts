import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { BasicIncomeSupport, SocialSituationRecord } from '../../core/records/social.ts';
import { attributionOf } from '../../core/source.ts';
import { officialParts, type OfficialTable } from '../genesis/official.ts';
import { baKreisOf, baKreisTable, KREIS_ONLY, NO_TABLE } from './adapters.ts';
import { parseGrusi } from './grusi.ts';
import { BA_STATISTIK } from './source.ts';

const GRUSI_NOTE =
  'The BA row labels of EckwerteZeitreiheGrusi were not seen in a recorded answer; the named values are matched by the BA terms ' +
  '(Bedarfsgemeinschaften, Regelleistungsberechtigte, erwerbsfähige / nicht erwerbsfähige Leistungsberechtigte) and every row is passed on in figures.';

/** The BA SGB II figures of the city's own Kreis, or why there are none. */
async function basicIncomeSupport(ctx: FetchContext): Promise<{ part: BasicIncomeSupport | null; reason?: string }> {
  const { city, http } = ctx;
  if (!city.district_free) return { part: null, reason: KREIS_ONLY(city.name) };
  const kreis = await baKreisOf(ctx);
  if (!kreis) return { part: null, reason: `the BA region list has no Kreis ${city.ags.slice(0, 5)}` };
  const csv = await baKreisTable(http, 'EckwerteZeitreiheGrusi', kreis);
  if (csv === null) return { part: null, reason: NO_TABLE('EckwerteZeitreiheGrusi', kreis) };
  const g = parseGrusi(csv);
  const credit = attributionOf(BA_STATISTIK);
  return {
    part: {
      kreis_key: kreis.key,
      region_name: g.region_name ?? kreis.name,
      reference_month: g.reference_month,
      benefit_communities: g.benefit_communities,
      recipients: g.recipients,
      employable_recipients: g.employable_recipients,
      non_employable_recipients: g.non_employable_recipients,
      recipients_per_1000_inhabitants: g.recipients !== null && city.population ? Math.round((g.recipients / city.population) * 10_000) / 10 : null,
      figures: g.figures,
      series: g.series,
      source: credit.source,
      license: credit.license,
      attribution: credit.text,
    },
    ...(g.labels_unmatched ? { reason: 'no row of the BA table carries one of the expected labels; see figures' } : {}),
  };
}

/**
 * `social-situation`: SGB II figures of the BA (keyless, kreisfreie Städte only) plus the
 * Regionaldatenbank tables declared as `official` (housing benefit, social assistance), each
 * part with its own source and licence. No part at all answers no_data with every reason.
 */
export function socialSituation(official: Readonly<Record<string, OfficialTable>>): Adapter<SocialSituationRecord> {
  return async (ctx) => {
    const [ba, { parts, reasons }] = await Promise.all([basicIncomeSupport(ctx), officialParts(ctx, official)]);
    const meta: Record<string, unknown> = { official_reasons: reasons, basic_income_support_note: GRUSI_NOTE };
    if (ba.reason) meta.basic_income_support_reason = ba.reason;
    if (!ba.part && Object.values(parts).every((p) => p === null)) {
      return {
        data: null,
        status: 'no_data',
        meta: { ...meta, reason: `no figures for ${ctx.city.name}: see basic_income_support_reason and official_reasons` },
      };
    }
    return {
      data: { basic_income_support: ba.part, population: ctx.city.population, population_date: ctx.city.population_date, official: parts },
      meta,
    };
  };
}
