import { dataType, type DataType } from '../core/data-type.ts';
import { ParkingSiteRecord } from '../core/records/mobility.ts';
import { CITY_PARKING } from '../sources/city-parking/source.ts';
import { PARKING_CITIES, cityParking, summariseParking } from '../sources/city-parking/adapters.ts';
import { PARKING_MAX_AGE_HOURS } from '../sources/city-parking/sites.ts';

/** Mobility: parking, park-and-ride, fuel prices. Declarations only (adapters live in their source modules). */
export const MOBILITY_TYPES: DataType[] = [
  dataType({
    type: 'parking',
    label: 'Parkhäuser',
    label_en: 'Parking',
    group: 'transport',
    summary: "Car parks with capacity, live free spaces and occupancy share from the city's own openly licensed parking feed",
    description:
      "Freiburg im Breisgau: the city's parking guidance WFS (dl-de/by-2-0; coordinates converted from EPSG:25832; local times without " +
      "zone read as Europe/Berlin). Karlsruhe: the city's car park layer TBA:parkhaeuser (CC BY 4.0), only sites in Karlsruhe itself, live " +
      'counts only where the layer flags real-time data and reports no fault. Every site names its feed (source) and licence. ' +
      `occupancy_share = (capacity - free_spaces) / capacity, 0 to 1. Freshness guard: a feed whose newest live value is older than ${PARKING_MAX_AGE_HOURS} h ` +
      `answers no_data with the reason (meta.reason, meta.feed_updated_at); a single site whose value is older than ${PARKING_MAX_AGE_HOURS} h keeps its ` +
      'capacity but has free_spaces null. Cities without an open parking feed answer not_covered (meta.covered_cities).',
    source: CITY_PARKING,
    record: ParkingSiteRecord,
    list: true,
    cache: { freshSeconds: 120, staleSeconds: 900 },
    coverage: { cities: PARKING_CITIES, note: 'cities that publish their car park occupancy themselves under an open licence' },
    compare: { resource: 'parking', summarise: summariseParking, value: 'free_spaces' },
    example: { city: 'freiburg-im-breisgau' },
    adapter: cityParking,
  }),
];
