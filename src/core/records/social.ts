import { date, int, lazy, list, num, record, text, z, type Infer } from '../schema.ts';
import { officialPartsRecord, type OfficialShape, type StatisticsRecord } from './statistics.ts';

const grusiValues = {
  benefit_communities: int('Benefit communities (Bedarfsgemeinschaften) under SGB II'),
  recipients: int('People entitled to standard benefits (Regelleistungsberechtigte) under SGB II'),
  employable_recipients: int('Employable benefit recipients (erwerbsfähige Leistungsberechtigte)'),
  non_employable_recipients: int('Non-employable benefit recipients (nicht erwerbsfähige Leistungsberechtigte), mostly children'),
};

export const BasicIncomeSupport = lazy(() =>
  record(
    {
      kreis_key: z.string().meta({ description: 'Five-digit key of the Kreis (kreisfreie Stadt) the BA figures are for' }),
      region_name: text('Region as the BA names it'),
      reference_month: z.string().meta({ description: 'Month of the figures, YYYY-MM' }),
      ...grusiValues,
      recipients_per_1000_inhabitants: num('Recipients per 1,000 inhabitants (population of the city register)', 'per 1,000'),
      figures: list(
        record({ label: z.string().meta({ description: 'Row label as the BA publishes it (German)' }), value: num('Value of the reference month') }),
        'Every row of the BA table for the reference month, verbatim',
      ),
      series: list(record({ month: z.string().meta({ description: 'Month, YYYY-MM' }), ...grusiValues }), 'The named values per month, oldest first'),
      source: z.string().meta({ description: 'Source of this part' }),
      license: z.string().meta({ description: 'Licence of this part' }),
      attribution: z.string().meta({ description: 'Credit line of this part' }),
    },
    'Basic income support for jobseekers (SGB II, Bürgergeld), monthly, BA statistics (EckwerteZeitreiheGrusi); null for cities inside a Kreis',
  ),
);
export type BasicIncomeSupport = Infer<typeof BasicIncomeSupport>;

/** Basic income support (BA, keyless) plus housing benefit and social assistance (Regionaldatenbank). */
export function socialSituationRecord(official: Readonly<Record<string, OfficialShape>>) {
  return record({
    basic_income_support: BasicIncomeSupport().nullable(),
    population: int('Population the rates are based on'),
    population_date: date('Reference date of that population'),
    official: officialPartsRecord(official, 'Housing benefit and social assistance from the Regionaldatenbank Deutschland (needs GENESIS credentials)'),
  });
}
export type SocialSituationRecord = {
  basic_income_support: BasicIncomeSupport | null;
  population: number | null;
  population_date: string | null;
  official: Record<string, StatisticsRecord | null>;
};
