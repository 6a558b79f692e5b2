import { list, num, oneOf, record, text, time, lazy, type Infer } from '../schema.ts';

export const SMARD_RESOLUTIONS = ['hour', 'quarterhour'] as const;
export type SmardResolution = (typeof SMARD_RESOLUTIONS)[number];

const seriesHead = {
  region: text('SMARD region code: DE (Germany), DE-LU (bidding zone) or a control area (50Hertz, Amprion, TenneT, TransnetBW)'),
  region_kind: oneOf(['national', 'bidding_zone', 'control_area'], 'What the region is'),
  resolution: oneOf(SMARD_RESOLUTIONS, 'Slot length of the series'),
};

const loadPoint = lazy(() =>
  record({ start: time('Start of the slot'), end: time('End of the slot'), load_mwh: num('Grid load (Netzlast) in the slot', 'MWh') }),
);
const pricePoint = lazy(() =>
  record({
    start: time('Start of the slot'),
    end: time('End of the slot'),
    price_eur_mwh: num('Day-ahead wholesale price in the slot', 'EUR/MWh'),
  }),
);

const LATEST = 'The latest published slot (unpublished trailing slots are ignored)';
const LAST_24H = 'The published slots of the 24 hours up to and including the latest one, oldest first';

const loadSeries = lazy(() => record({ ...seriesHead, latest: loadPoint().nullable().meta({ description: LATEST }), last_24h: list(loadPoint(), LAST_24H) }));
const priceSeries = lazy(() =>
  record({ ...seriesHead, latest: pricePoint().nullable().meta({ description: LATEST }), last_24h: list(pricePoint(), LAST_24H) }),
);

export const PowerLoadRecord = lazy(() =>
  record({
    national: loadSeries(),
    control_area: loadSeries()
      .nullable()
      .meta({ description: 'The same for the transmission control area of the city, where it is known (see control_area_note)' }),
    control_area_note: text('How the control area was chosen, or why it is missing'),
  }),
);
export type PowerLoadRecord = Infer<typeof PowerLoadRecord>;
export type LoadSeries = PowerLoadRecord['national'];

export const PowerPriceRecord = lazy(() => record({ bidding_zone: priceSeries() }));
export type PowerPriceRecord = Infer<typeof PowerPriceRecord>;
export type PriceSeries = PowerPriceRecord['bidding_zone'];
