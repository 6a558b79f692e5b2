import { dataType, type DataType } from '../core/data-type.ts';
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

const DAY = 86400;

const resolution = (fallback: string): ParamDecl => ({
  name: 'resolution',
  type: 'string',
  enum: SMARD_RESOLUTIONS,
  default: fallback,
  description: 'Slot length of the series: hour or quarterhour',
});

/** Energy: declarations only (adapters live in their source modules). */
export const ENERGY_GRID_TYPES: DataType[] = [
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
    reads: [{ source: SMARD, adapter: powerLoad }],
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
    reads: [{ source: SMARD, adapter: powerPrice }],
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
    reads: [{ source: MASTR, adapter: installedGeneration }],
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
    reads: [{ source: ZENSUS_GRID, adapter: districtHeating }],
  }),
];
