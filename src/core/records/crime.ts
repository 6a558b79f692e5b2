import { int, list, num, record, text, lazy, type Infer } from '../schema.ts';

const figures = {
  cases: int('Recorded cases (erfasste Fälle)'),
  per_100k_inhabitants: num('Frequency: cases per 100,000 inhabitants (HZ) as the BKA computes it', 'per 100,000'),
  solved_pct: num('Clearance rate (Aufklärungsquote)', '%'),
  suspects: int('Suspects (Tatverdächtige insgesamt)'),
};

export const CrimeStatsRecord = lazy(() =>
  record({
    report_year: int('PKS report year (Berichtsjahr)'),
    city_key: text('Gemeindeschlüssel of the city in the PKS table'),
    city_name: text('City name as the PKS table writes it'),
    total: record(figures, 'All offences (Straftaten insgesamt, key ------)').nullable(),
    offences: list(
      record({ key: text('PKS offence key (6 characters, * as wildcard)'), offence: text('Offence group as the BKA names it'), ...figures }),
      'Every offence group the city table lists, in table order',
    ),
  }),
);
export type CrimeStatsRecord = Infer<typeof CrimeStatsRecord>;
export type CrimeFigures = NonNullable<CrimeStatsRecord['total']>;
