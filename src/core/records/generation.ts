import { int, list, num, record, text, lazy, type Infer } from '../schema.ts';

const carrier = lazy(() =>
  record({
    carrier_id: int('MaStR id of the energy carrier, e.g. 2495 solar radiation'),
    carrier: text('Energy carrier as the register names it, e.g. Solare Strahlungsenergie'),
    units: int('Units in operation'),
    net_capacity_kw: num('Net rated capacity of those units', 'kW'),
    gross_capacity_kw: num('Gross capacity of those units', 'kW'),
  }),
);

export const EnergyRecord = lazy(() =>
  record({
    municipality_key: text('AGS (8 digits) the register was filtered by'),
    units_in_operation: int('Electricity generation units in operation in the municipality'),
    net_capacity_kw: num('Their net rated capacity', 'kW'),
    units_registered: int('All units the register lists for the municipality (planned, in operation, shut down)'),
    by_carrier: list(carrier(), 'Units in operation per energy carrier, largest capacity first'),
  }),
);
export type EnergyRecord = Infer<typeof EnergyRecord>;
