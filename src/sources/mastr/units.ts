import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import type { EnergyRecord } from '../../core/records/generation.ts';

/** One page of `GetErweiterteOeffentlicheEinheitStromerzeugung`. */
export interface MastrPage {
  Data?: MastrUnit[] | null;
  Total?: number;
  Errors?: unknown;
}

/** The fields of a unit used here (the register sends about a hundred). */
export interface MastrUnit {
  EnergietraegerId?: number | null;
  EnergietraegerName?: string | null;
  BetriebsStatusId?: number | null;
  Nettonennleistung?: number | null;
  Bruttoleistung?: number | null;
  Gemeindeschluessel?: string | null;
  Gemeinde?: string | null;
  /** Where the unit stands, e.g. "Bauliche Anlagen (Hausdach, Gebäude und Fassade)", "Freifläche". */
  LageEinheitBezeichnung?: string | null;
}

/** Betriebs-Status "In Betrieb". */
export const IN_OPERATION = 35;

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/** A page lists its units (each member read here may be null in the register) and the count of all. */
const PageShape = z.looseObject({
  Data: z.array(
    z.looseObject({
      EnergietraegerId: optNumber,
      EnergietraegerName: optText,
      BetriebsStatusId: optNumber,
      Nettonennleistung: optNumber,
      Bruttoleistung: optNumber,
      Gemeindeschluessel: optText,
      Gemeinde: optText,
      LageEinheitBezeichnung: optText,
    }),
  ),
  Total: z.number(),
});

export function parsePage(body: MastrPage): { units: MastrUnit[]; total: number } {
  if (body && typeof body === 'object' && body.Errors) throw new UpstreamError('parse', 'MaStR answered with Errors');
  const page = shaped(PageShape, body, 'MaStR page');
  return { units: page.Data, total: page.Total };
}

const kw = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const round = (v: number) => Math.round(v * 1000) / 1000;

/** Units in operation by energy carrier; capacities in kW as registered. */
export function summarise(ags: string, units: MastrUnit[]): EnergyRecord {
  const by = new Map<number, EnergyRecord['by_carrier'][number]>();
  let count = 0;
  let net = 0;
  for (const u of units) {
    if (u.BetriebsStatusId !== IN_OPERATION || typeof u.EnergietraegerId !== 'number') continue;
    const c = by.get(u.EnergietraegerId) ?? {
      carrier_id: u.EnergietraegerId,
      carrier: u.EnergietraegerName ?? null,
      units: 0,
      net_capacity_kw: 0,
      gross_capacity_kw: 0,
    };
    c.units = (c.units ?? 0) + 1;
    c.net_capacity_kw = round((c.net_capacity_kw ?? 0) + kw(u.Nettonennleistung));
    c.gross_capacity_kw = round((c.gross_capacity_kw ?? 0) + kw(u.Bruttoleistung));
    by.set(u.EnergietraegerId, c);
    count++;
    net += kw(u.Nettonennleistung);
  }
  return {
    municipality_key: ags,
    units_in_operation: count,
    net_capacity_kw: round(net),
    units_registered: units.length,
    by_carrier: [...by.values()].sort((a, b) => (b.net_capacity_kw ?? 0) - (a.net_capacity_kw ?? 0)),
  };
}
