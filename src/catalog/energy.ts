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
import type { ParamDecl } from '../core/params.ts';
import { PowerLoadRecord, PowerPriceRecord, SMARD_RESOLUTIONS } from '../core/records/power.ts';
import { SMARD } from '../sources/smard/source.ts';
import { powerLoad, powerPrice } from '../sources/smard/adapters.ts';
import { powerLoadBackfill, powerPriceBackfill } from '../sources/smard/backfill.ts';
import { EnergyRecord } from '../core/records/generation.ts';
import { MASTR } from '../sources/mastr/source.ts';
import { MAX_PAGES, PAGE_SIZE, installedGeneration } from '../sources/mastr/adapters.ts';
import { DistrictHeatingRecord } from '../core/records/heating.ts';
import { ZENSUS_GRID } from '../sources/zensus/source.ts';
import { districtHeating } from '../sources/zensus/district-heating.ts';

/**
 * The charging data providers of /api/v1/live/{operator}/charging, each with its own source:
 * MobiData BW is the type's main source, eRound a variant picked by the operator segment.
 */
const CHARGING_MAIN_OPERATOR = 'mobidata-bw';
/** The charging data providers of /live/{operator}/charging: MobiData BW's feed, and eRound's through Mobilithek. */
const EROUND_OPERATOR = 'eround';
const CHARGING_OPERATORS = [CHARGING_MAIN_OPERATOR, EROUND_OPERATOR];

/** MobiData BW's live feed covers Baden-Württemberg; elsewhere there is no keyless live source. */
const BW_CITIES = CITIES.filter((c) => c.state === 'BW').map((c) => c.slug);

const DAY = 86400;

const resolution = (fallback: string): ParamDecl => ({
  name: 'resolution',
  type: 'string',
  enum: SMARD_RESOLUTIONS,
  default: fallback,
  description: 'Slot length of the series: hour or quarterhour',
});

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
    sources: [{ role: 'primary', source: BNETZA, adapter: storedChargingStations, jobs: [chargingPrecompute] }],
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
    sources: [{ role: 'primary', source: MOBIDATA_OCPDB, adapter: liveChargingStatus }],
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
    sources: [
      { role: 'primary', source: MOBIDATA_OCPDB, adapter: ocpdbLiveCharging },
      { role: 'primary', for: [EROUND_OPERATOR], source: MOBILITHEK_EROUND, adapter: eroundLiveCharging },
    ],
  }),
  dataType({
    type: 'power-load',
    history: { fields: [{ name: 'load_mwh', path: 'national.latest.load_mwh', unit: 'MWh' }], backfill: powerLoadBackfill },
    label: 'Stromverbrauch (Netzlast)',
    label_en: 'Electricity grid load',
    group: 'energy',
    summary: 'Latest published grid load in Germany and in the city’s transmission control area, with the last 24 hours (SMARD)',
    description:
      'SMARD chart data, filter 410 (Netzlast, MWh per slot). There is no city granularity: `national` is Germany (DE); `control_area` ' +
      'is the TSO control area (50Hertz, Amprion, TenneT, TransnetBW) for cities in states that lie wholly in one control area, null ' +
      'elsewhere (control_area_note says why). Slots SMARD has not published yet (trailing nulls) are ignored; times are zoned ' +
      'Europe/Berlin slot starts and ends.',
    params: [resolution('hour')],
    record: PowerLoadRecord,
    cache: { freshSeconds: 600, staleSeconds: 6 * 3600 },
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: SMARD, adapter: powerLoad }],
  }),
  dataType({
    type: 'power-price',
    history: { fields: [{ name: 'price_eur_mwh', path: 'bidding_zone.latest.price_eur_mwh', unit: '€/MWh' }], backfill: powerPriceBackfill },
    label: 'Strompreis (Day-Ahead)',
    label_en: 'Electricity day-ahead price',
    group: 'energy',
    summary: 'Latest published day-ahead wholesale price of the bidding zone Germany/Luxembourg, with the last 24 hours (SMARD)',
    description:
      'SMARD chart data, filter 4169 (Großhandelspreis DE/LU, EUR/MWh). The price is the same for every city (one bidding zone). ' +
      'Day-ahead prices are published the day before delivery, so the latest slot can lie in the next day. Since the day-ahead market ' +
      'moved to 15-minute products the quarter-hour series is the auction result; the hourly one is SMARD’s aggregate.',
    params: [resolution('quarterhour')],
    record: PowerPriceRecord,
    cache: { freshSeconds: 600, staleSeconds: 6 * 3600 },
    compare: { resource: 'power-price', value: 'bidding_zone.latest.price_eur_mwh' },
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: SMARD, adapter: powerPrice }],
  }),
  dataType({
    type: 'energy',
    label: 'Stromerzeugungsanlagen',
    label_en: 'Electricity generation units',
    group: 'energy',
    summary: 'Installed electricity generation in the municipality by energy carrier: units in operation and net capacity (Marktstammdatenregister)',
    description:
      'All units the Marktstammdatenregister lists with the municipality key (AGS) of the city, read page by page ' +
      `(${PAGE_SIZE} units per page, at most ${MAX_PAGES} pages; meta.truncated says when the cap was reached), summed per energy ` +
      'carrier for the units in operation (Betriebs-Status 35). Capacities are the registered net rated (Nettonennleistung) and gross ' +
      'capacities in kW. Small PV units are anonymised by the register but still counted.',
    record: EnergyRecord,
    cache: { freshSeconds: DAY, staleSeconds: 14 * DAY },
    compare: { resource: 'energy', value: 'net_capacity_kw' },
    example: { city: 'freiburg-im-breisgau' },
    sources: [{ role: 'primary', source: MASTR, adapter: installedGeneration }],
  }),
  dataType({
    type: 'district-heating',
    label: 'Fernwärme',
    label_en: 'District heating',
    group: 'energy',
    summary: 'Share of residential buildings heated with district heat, from the Zensus 2022 100 m grid (reference date 15 May 2022)',
    description:
      "Sums over the city's 100 m grid cells (each cell carries its municipality's AGS) in one statistics query: buildings with living " +
      'space by heating energy carrier (Fernwaerme of Insgesamt_Energietraeger) and by predominant heating type (Fernheizung of ' +
      'Insgesamt_Heizungsart). Cell values carry the census’s cell-key noise and secret cells are left out of the sums, so counts are ' +
      'approximate. No nationwide open source publishes district-heating networks or prices; this is the census figure, not current.',
    record: DistrictHeatingRecord,
    cache: { freshSeconds: 7 * DAY, staleSeconds: 60 * DAY },
    compare: { resource: 'district-heating', value: 'district_heat_share_pct' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: ZENSUS_GRID, adapter: districtHeating }],
  }),
];
