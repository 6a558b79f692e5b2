import { int, list, num, record, text, z, lazy, type Infer } from '../schema.ts';

const indicator = lazy(() =>
  record({
    id: text('Wegweiser Kommune indicator id (friendlyUrl)'),
    name: z.string().meta({ description: 'Indicator name as Wegweiser Kommune defines it, German' }),
    unit: text('Unit as Wegweiser Kommune states it, German (e.g. %, Jahre, je 1.000 Einwohner)'),
    year: int('Latest year with a value'),
    value: num('Value of that year, in the indicator unit'),
    series: list(
      record({ year: int('Year'), value: num('Value of the year, in the indicator unit (null: none published)') }),
      'Every year Wegweiser Kommune offers, oldest first',
    ),
  }),
);

export const IndicatorsRecord = lazy(() =>
  record({
    region: record({
      name: text('Region name'),
      title: text('Region title, e.g. with its type'),
      ags: text('Official municipality key (Gemeindekennziffer) of the region'),
      ars: text('Regional key (ARS) of the region'),
      region_type: text('Wegweiser Kommune region type'),
    })
      .nullable()
      .meta({ description: 'The Wegweiser Kommune region the indicators are for' }),
    indicator_count: z.number().int().meta({ description: 'Indicators with a value' }),
    indicators: list(indicator(), 'Every indicator of the topics demography, social situation and employment'),
    data_source: text('Source note of Wegweiser Kommune'),
    remark: text('Remark of Wegweiser Kommune'),
  }),
);
export type IndicatorsRecord = Infer<typeof IndicatorsRecord>;

const month = (description: string) =>
  record({
    month: text('Month, YYYY-MM'),
    unemployed: int('Registered unemployed'),
    unemployment_rate_pct: num('Unemployment rate based on all civilian labour force', '%'),
  }).meta({ description });

export const UnemploymentRecord = lazy(() =>
  record({
    kreis_key: z.string().meta({ description: 'Five-digit key of the Kreis (kreisfreie Stadt): the first five AGS digits' }),
    region_name: text('Region name as the BA table states it'),
    reference_month: text('Reference month, YYYY-MM'),
    unemployed: int('Registered unemployed in the reference month'),
    unemployment_rate_pct: num('Unemployment rate in the reference month', '%'),
    rate_basis: text('Basis of the rate, as the BA labels its row (e.g. "Arbeitslosenquote bezogen auf alle zivilen Erwerbspersonen")'),
    unemployed_sgb3: int('Unemployed under SGB III (employment agency)'),
    unemployed_sgb2: int('Unemployed under SGB II (jobcentre)'),
    unemployment_rate_sgb3_pct: num('Unemployment rate under SGB III', '%'),
    unemployment_rate_sgb2_pct: num('Unemployment rate under SGB II', '%'),
    previous_month: month('The month before the reference month'),
    year_ago: month('The reference month a year earlier'),
    change_year_on_year: int('Change of the unemployed against a year earlier'),
    change_year_on_year_pct: num('Change of the unemployed against a year earlier', '%'),
  }),
);
export type UnemploymentRecord = Infer<typeof UnemploymentRecord>;

export const PopulationDensityRecord = lazy(() =>
  record({
    population_census: int('Census inhabitants summed over the 100 m grid cells of the city'),
    reference_date: text('Census reference date (15 May 2022), YYYY-MM-DD'),
    area_km2: num('Municipal area of the Gemeindeverzeichnis (31.12.2024)', 'km²'),
    density_per_km2: num('Inhabitants per km² of the municipal area', 'inhabitants/km²'),
    populated_cells: int('Grid cells with inhabitants'),
    populated_area_km2: num('Populated area: cells × 0.01 km²', 'km²'),
    density_per_populated_km2: num('Inhabitants per km² of the populated area', 'inhabitants/km²'),
    grid: text('Grid resolution (100m)'),
  }),
);
export type PopulationDensityRecord = Infer<typeof PopulationDensityRecord>;
