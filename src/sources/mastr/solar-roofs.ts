import type { Adapter } from '../../core/data-type.ts';
import type { SolarRoofsRecord } from '../../core/records/solar.ts';
import { toBerlinIso } from '../../core/time.ts';
import { readUnits } from './adapters.ts';
import { IN_OPERATION, type MastrUnit } from './units.ts';

/** The register's energy carrier id of photovoltaics ("Solare Strahlungsenergie"). */
export const SOLAR_CARRIER = 2495;

/** The register's location classes (`LageEinheitBezeichnung`) as the record's groups. */
const ON_BUILDINGS = /^Bauliche Anlagen \(Hausdach, Gebäude und Fassade\)/;
const PLUG_IN = /^Steckerfertige/;
const GROUND = /^Freifläche/;

type Installed = NonNullable<SolarRoofsRecord['total']>;

function installed(units: MastrUnit[]): Installed {
  const kw = units.reduce((a, u) => a + (typeof u.Bruttoleistung === 'number' && Number.isFinite(u.Bruttoleistung) ? u.Bruttoleistung : 0), 0);
  // The register states capacities, not yields: yield_gwh stays null.
  // MW to four decimals (100 W), as the state files give them.
  return { installations: units.length, capacity_mw: Math.round(kw * 10) / 10_000, yield_gwh: null };
}

/**
 * `solar-roofs` outside the states with their own per-municipality file: the PV units in operation
 * the Marktstammdatenregister lists with the city's AGS (one register filter on the carrier), by
 * where they stand. The register does not tell roofs from façades: `buildings` holds both and
 * `rooftop` is null. The stock is today's, so `stand` is the day of reading.
 */
export const mastrSolarRoofs: Adapter<SolarRoofsRecord> = async ({ city, http, now }) => {
  const { units, total, truncated } = await readUnits(http, city.ags, `~and~Energieträger~eq~'${SOLAR_CARRIER}'`);
  const pv = units.filter((u) => u.EnergietraegerId === SOLAR_CARRIER && u.BetriebsStatusId === IN_OPERATION);
  const meta: Record<string, unknown> = {
    units_total: total,
    ...(truncated ? { truncated } : {}),
    note: 'The register does not tell roofs from façades: buildings counts both, rooftop is null; it states no yields.',
  };
  if (pv.length === 0) return { data: null, status: 'no_data', meta: { ...meta, reason: 'the register lists no PV unit in operation for this municipality' } };
  const lage = (re: RegExp) => pv.filter((u) => re.test(u.LageEinheitBezeichnung ?? ''));
  const today = toBerlinIso(now).slice(0, 10);
  return {
    data: {
      ags: city.ags,
      municipality: pv.find((u) => u.Gemeinde)?.Gemeinde ?? city.name,
      year: Number(today.slice(0, 4)),
      stand: today,
      data_basis: 'MaStR (Bundesnetzagentur), PV units in operation',
      rooftop: null,
      buildings: installed(lage(ON_BUILDINGS)),
      plug_in: installed(lage(PLUG_IN)),
      ground_mounted: installed(lage(GROUND)),
      total: installed(pv),
    },
    meta,
  };
};
