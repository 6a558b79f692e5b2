import { int, num, record, text, date, bool, lazy, type Infer } from '../schema.ts';

const sales = (what: string) =>
  record(
    {
      price_eur_m2: num(`Average purchase price per m² of ${what}`, 'EUR/m²'),
      sales: int(`Sales of ${what}`),
      area_m2: num(`Area of ${what} sold`, 'm²'),
      purchase_sum_eur: num(`Purchase sum of ${what}`, 'EUR'),
    },
    `Sales of ${what} in the year`,
  ).nullable();

/** Who publishes one part of a composed answer, under which licence (each part names its own). */
export const PartSource = lazy(() =>
  record(
    {
      source: text('Publisher of this part'),
      license: text('Licence of this part'),
      license_url: text('Licence text'),
      attribution: text('Credit line the licence asks for'),
    },
    'Source, licence and credit line of this part of the answer',
  ),
);
export type PartSource = Infer<typeof PartSource>;

/** Bodenrichtwerte of one state's BORIS service, summarised over the city's residential zones. */
export const StandardLandValues = lazy(() =>
  record(
    {
      state: text('State (Land) whose BORIS service the values come from, e.g. BE'),
      reference_date: date('Reference date (Stichtag) of the standard land values summarised'),
      year: int('Year of the reference date'),
      median_eur_m2: num('Median standard land value of the residential zones', 'EUR/m²'),
      min_eur_m2: num('Lowest standard land value of the residential zones', 'EUR/m²'),
      max_eur_m2: num('Highest standard land value of the residential zones', 'EUR/m²'),
      zones: int('Residential building-land zones summarised'),
      zones_read: int('Zones read from the service (all usages) before the residential filter'),
      truncated: bool('The service holds more zones than the read cap: the summary covers the first ones only'),
      zones_selected: text('Which zones count (usage and development state filter as the service writes them)'),
      area: text('How the zones were limited to the city (municipality key, bounding box or the whole city-state layer)'),
      provenance: PartSource(),
    },
    'Standard land values (Bodenrichtwerte) of the state’s open BORIS service: median and range of the city’s residential zones',
  ).nullable(),
);
export type StandardLandValues = Infer<typeof StandardLandValues>;

export const LandValuesRecord = lazy(() =>
  record({
    year: text('Year of the building-land sales (statistical offices; null without that part)'),
    region_key: text('District key (Kreis) the sales figures are for: the city itself (district-free cities only)'),
    region_name: text('District name as the statistics office writes it'),
    building_land: sales('building land of all kinds'),
    building_ready_land: sales('building-ready land (baureifes Land)'),
    building_land_source: PartSource().nullable(),
    building_land_note: text('Why the nationwide building-land price table has no figure here (null when it has)'),
    standard_land_values: StandardLandValues(),
    standard_land_values_note: text('Why there are no standard land values (BORIS) for the city, or what to keep in mind about them'),
  }),
);
export type LandValuesRecord = Infer<typeof LandValuesRecord>;
