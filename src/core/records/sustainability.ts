import { int, list, num, record, text, lazy, type Infer } from '../schema.ts';

export const SustainabilityRecord = lazy(() =>
  record({
    region: record(
      {
        name: text('Region name as the source writes it'),
        ags: text('Municipality key (AGS) the region was matched by'),
        ars: text('Regional key (ARS)'),
      },
      'The region of the city in the source',
    ).nullable(),
    data_source: text('The edition or statistical sources the values come from'),
    indicators: list(
      record({
        id: text('Indicator id (INKAR Kuerzel; Wegweiser friendlyUrl)'),
        label: text('Indicator name, German'),
        unit: text('Unit (e.g. %, m, m²)'),
        value: num('Value of the latest year with data'),
        year: int('Year of that value'),
        sdg_goal: int('The UN Sustainable Development Goal (1–17) the indicator reports on; null where the source does not say'),
        level: text('Spatial level of the value: Gemeinde, or Kreis for a kreisfreie city (same territory); null where the source does not say'),
      }),
      'The SDG-related indicators',
    ),
  }),
);
export type SustainabilityRecord = Infer<typeof SustainabilityRecord>;
