import { int, list, num, record, text, lazy, type Infer } from '../schema.ts';

export const SustainabilityRecord = lazy(() =>
  record({
    region: record(
      {
        name: text('Region name of Wegweiser Kommune'),
        ags: text('Municipality key (AGS) the region was matched by'),
        ars: text('Regional key (ARS)'),
      },
      'The Wegweiser Kommune region of the city',
    ).nullable(),
    data_source: text('Statistical sources Wegweiser Kommune names for the values'),
    indicators: list(
      record({
        id: text('Indicator id (Wegweiser friendlyUrl)'),
        label: text('Indicator name, German'),
        unit: text('Unit as published (e.g. %, m² je Einwohner:in)'),
        value: num('Value of the latest year with data'),
        year: int('Year of that value'),
      }),
      'The SDG indicators of the topic "Nachhaltigkeit"',
    ),
  }),
);
export type SustainabilityRecord = Infer<typeof SustainabilityRecord>;
