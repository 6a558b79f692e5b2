import { int, num, record, text, lazy, type Infer } from '../schema.ts';

const sales = (what: string) =>
  record(
    {
      price_eur_m2: num(`Average purchase price per m² of ${what}`, 'EUR/m²'),
      sales: int(`Sales of ${what}`),
      area_m2: num(`Area of ${what} sold`, 'm²'),
      purchase_sum_eur: num(`Purchase sum of ${what}`, 'EUR'),
    },
    `Sales of ${what} in the year`,
  );

export const LandValuesRecord = lazy(() =>
  record({
    year: text('Year of the sales'),
    region_key: text('District key (Kreis) the figures are for: the city itself (district-free cities only)'),
    region_name: text('District name as the statistics office writes it'),
    building_land: sales('building land of all kinds'),
    building_ready_land: sales('building-ready land (baureifes Land)'),
    standard_land_values: text('Standard land values (Bodenrichtwerte, BORIS): why they are not part of this answer'),
  }),
);
export type LandValuesRecord = Infer<typeof LandValuesRecord>;
