import { dataType, type DataType } from '../core/data-type.ts';
import { CITIES } from '../cities/register.ts';
import { ChargingRecord, ChargingStatusRecord } from '../core/records/energy.ts';
import { BNETZA } from '../sources/bnetza/source.ts';
import { storedChargingStations } from '../sources/bnetza/adapters.ts';
import { MOBIDATA_OCPDB } from '../sources/mobidata/source.ts';
import { liveChargingStatus, summariseChargingStatus } from '../sources/mobidata/adapters.ts';

/** MobiData BW's live feed covers Baden-Württemberg; elsewhere there is no keyless live source. */
const BW_CITIES = CITIES.filter((c) => c.state === 'BW').map((c) => c.slug);

/** Energy: declarations only (adapters live in their source modules). */
export const ENERGY_TYPES: DataType[] = [
  dataType({
    type: 'charging',
    label: 'Ladesäulen',
    label_en: 'Charging stations',
    group: 'energy',
    summary: 'Public charging stations of the city from the Bundesnetzagentur register (weekly precompute of the monthly edition)',
    description:
      'Stations of the Ladesäulenregister whose Bundesland, Ort (core city name) and coordinates (within a radius derived ' +
      'from the city area) agree with the city; the register has no municipality key. Aggregates: stations, charging points, ' +
      'total rated power (kW), fast/normal stations. No occupancy (see charging-status).',
    source: BNETZA,
    record: ChargingRecord,
    list: 'points',
    cache: 'stored',
    job: 'charging-precompute',
    example: { city: 'stuttgart' },
    adapter: storedChargingStations,
  }),
  dataType({
    type: 'charging-status',
    label: 'Ladesäulen-Belegung',
    label_en: 'Charging status',
    group: 'energy',
    summary: 'Live occupancy of public charging points (available, occupied, out of order) in Baden-Württemberg cities',
    description:
      'EVSE status from the MobiData BW Open ChargePoint DataBase (OCPI locations in a box around the city, kept when ' +
      "within the city radius and the location's city names the city). OCPI AVAILABLE -> available; CHARGING, BLOCKED, RESERVED -> occupied; INOPERATIVE, OUTOFORDER -> " +
      'out_of_order; anything else -> unknown; PLANNED and REMOVED are left out.',
    source: MOBIDATA_OCPDB,
    record: ChargingStatusRecord,
    list: 'points',
    cache: { freshSeconds: 60, staleSeconds: 900 },
    live: { refreshSeconds: 60 },
    coverage: { cities: BW_CITIES, note: 'Live charging status comes from MobiData BW and covers cities in Baden-Württemberg only.' },
    // Compared by the aggregates only (summarised), so `value` names a field of the summary.
    compare: { resource: 'charging-status', summarise: summariseChargingStatus, value: 'available' },
    example: { city: 'stuttgart' },
    adapter: liveChargingStatus,
  }),
];
