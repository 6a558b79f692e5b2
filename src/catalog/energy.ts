import { dataType, globalType, type DataType } from '../core/data-type.ts';
import { chargingPrecompute } from '../jobs/charging-precompute.ts';
import { CITIES } from '../cities/register.ts';
import { ChargingRecord, ChargingStatusRecord, LiveChargePoint } from '../core/records/energy.ts';
import { BNETZA } from '../sources/bnetza/source.ts';
import { storedChargingStations } from '../sources/bnetza/adapters.ts';
import { MOBIDATA_OCPDB } from '../sources/mobidata/source.ts';
import { liveChargingStatus, ocpdbLiveCharging, summariseChargingStatus } from '../sources/mobidata/adapters.ts';
import { MOBILITHEK_EROUND } from '../sources/mobilithek/sources.ts';
import { eroundLiveCharging } from '../sources/mobilithek/adapters.ts';

/**
 * The charging data providers of /api/v1/live/{operator}/charging, each with its own source:
 * MobiData BW is the type's main source, eRound a variant picked by the operator segment.
 */
const CHARGING_MAIN_OPERATOR = 'mobidata-bw';
/** The charging data providers of /live/{operator}/charging: MobiData BW's feed, and eRound's through Mobilithek. */
const EROUND_READING = { values: ['eround'], source: MOBILITHEK_EROUND, adapter: eroundLiveCharging };
const CHARGING_OPERATORS = [CHARGING_MAIN_OPERATOR, ...EROUND_READING.values];

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
    record: ChargingRecord,
    list: 'points',
    cache: 'stored',
    example: { city: 'stuttgart' },
    reads: [{ source: BNETZA, adapter: storedChargingStations, jobs: [chargingPrecompute] }],
  }),
  dataType({
    type: 'charging-status',
    history: {
      fields: [
        { name: 'available', path: 'available', unit: 'points' },
        { name: 'occupied', path: 'occupied', unit: 'points' },
        { name: 'out_of_order', path: 'out_of_order', unit: 'points' },
        { name: 'total', path: 'total', unit: 'points' },
      ],
    },
    label: 'Ladesäulen-Belegung',
    label_en: 'Charging status',
    group: 'energy',
    summary: 'Live occupancy of public charging points (available, occupied, out of order) in Baden-Württemberg cities',
    description:
      'EVSE status from the MobiData BW Open ChargePoint DataBase (OCPI locations in a box around the city, kept when ' +
      "within the city radius and the location's city names the city). OCPI AVAILABLE -> available; CHARGING, BLOCKED, RESERVED -> occupied; INOPERATIVE, OUTOFORDER -> " +
      'out_of_order; anything else -> unknown; PLANNED and REMOVED are left out.',
    record: ChargingStatusRecord,
    list: 'points',
    cache: { freshSeconds: 60, staleSeconds: 900 },
    live: { refreshSeconds: 60 },
    coverage: { cities: BW_CITIES, note: 'Live charging status comes from MobiData BW and covers cities in Baden-Württemberg only.' },
    // Compared by the aggregates only (summarised), so `value` names a field of the summary.
    compare: { resource: 'charging-status', summarise: summariseChargingStatus, value: 'available' },
    example: { city: 'stuttgart' },
    reads: [{ source: MOBIDATA_OCPDB, adapter: liveChargingStatus }],
  }),
  globalType({
    type: 'live-charging',
    label: 'Ladepunkte live (je Betreiber)',
    label_en: 'Live charging (per operator)',
    group: 'energy',
    summary: 'Charge points of one charging data provider with live status, power, plug types and last update (DATEX II AFIR)',
    description:
      'The operator segment names a charging data provider: mobidata-bw (MobiData BW Open ChargePoint DataBase, keyless, DATEX II V3 ' +
      'JSON realtime joined with its static table) or eround (eRound AFIR status via Mobilithek: needs MOBILITHEK_CERT_PATH, ' +
      'MOBILITHEK_CERT_PASSWORD and EROUND_CHARGING_SUBSCRIPTION_ID, else disabled). Status available -> available; charging, occupied, ' +
      'blocked, reserved -> occupied; faulted, outOfOrder, inoperative -> out_of_order; anything else -> unknown; planned and removed are ' +
      'left out. Points are joined with the static table by refill point id; a point the table lacks keeps its status with null static ' +
      'fields (static_joined false; meta.points_status_only). An unknown operator is a 404 listing the operators.',
    path: '/api/v1/live/{operator}/charging',
    params: [
      {
        name: 'operator',
        in: 'path',
        type: 'string',
        required: true,
        enum: CHARGING_OPERATORS,
        invalid: 'route_not_found',
        description: 'Charging data provider',
      },
    ],
    record: LiveChargePoint,
    list: true,
    cache: { freshSeconds: 120, staleSeconds: 900 },
    live: { refreshSeconds: 120 },
    variantParam: 'operator',
    example: { params: { operator: CHARGING_MAIN_OPERATOR } },
    reads: [{ source: MOBIDATA_OCPDB, adapter: ocpdbLiveCharging }, EROUND_READING],
  }),
];
