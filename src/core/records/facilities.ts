import { date, int, list, num, record, text, time, lazy, type Infer } from '../schema.ts';
import { officialPartsRecord, type OfficialShape, type StatisticsRecord } from './statistics.ts';

const facility = lazy(() =>
  record({
    type: text('OpenStreetMap facility type (the pois type id), e.g. school'),
    label: text('What the type counts'),
    count: int('Objects of the type mapped within the city boundary (null: not precomputed yet)'),
    per_100k_inhabitants: num('Count per 100,000 inhabitants (population of the city register)', 'per 100,000'),
    computed_at: time('When the weekly precompute counted them'),
    osm_base: time('OpenStreetMap data timestamp of the count'),
  }),
);

export const FacilityCountsRecord = lazy(() =>
  record({
    facilities: list(facility(), 'Facility counts from OpenStreetMap (ODbL), one per type'),
    population: int('Population the rates are based on'),
    population_date: date('Reference date of that population'),
  }),
);
export type FacilityCountsRecord = Infer<typeof FacilityCountsRecord>;

/** Facility counts plus the official figures of the same topic, each part with its own source. */
export function facilitiesRecord(official: Readonly<Record<string, OfficialShape>>) {
  return FacilityCountsRecord().extend({
    official: officialPartsRecord(official, 'Official statistics of the Regionaldatenbank Deutschland for the topic (needs GENESIS credentials)'),
  });
}
export type FacilitiesRecord = FacilityCountsRecord & { official: Record<string, StatisticsRecord | null> };
