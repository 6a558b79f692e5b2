import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** A number, or a number written as text (PVGIS sends l_spec as a string). */
const numeric = z.union([z.number(), z.string()]).nullish();
const num = z.number().nullish();
const angle = z.looseObject({ value: num, optimal: z.boolean().nullish() }).nullish();

/** PVcalc?outputformat=json: the members read here. The yield is per kWp, so the simulated peak power is required. */
const PvcalcShape = z.looseObject({
  inputs: z.looseObject({
    location: z.looseObject({ elevation: num }).nullish(),
    meteo_data: z.looseObject({ radiation_db: z.string().nullish(), year_min: num, year_max: num }).nullish(),
    mounting_system: z.looseObject({ fixed: z.looseObject({ slope: angle, azimuth: angle }).nullish() }).nullish(),
    pv_module: z.looseObject({ technology: z.string().nullish(), peak_power: z.number().positive(), system_loss: num }),
  }),
  outputs: z.looseObject({
    totals: z.looseObject({ fixed: z.looseObject({ E_y: numeric, 'H(i)_y': numeric, SD_y: numeric, l_total: numeric }) }),
    monthly: z.looseObject({ fixed: z.array(z.looseObject({ month: z.number(), E_m: numeric, 'H(i)_m': numeric })) }).nullish(),
  }),
});

export interface PvYield {
  annual_kwh_per_kwp: number | null;
  annual_irradiation_kwh_m2: number | null;
  year_to_year_sd_kwh_per_kwp: number | null;
  total_loss_pct: number | null;
  slope_deg: number | null;
  azimuth_deg: number | null;
  angles_optimised: boolean | null;
  system_loss_pct: number | null;
  technology: string | null;
  radiation_db: string | null;
  year_min: number | null;
  year_max: number | null;
  elevation_m: number | null;
  monthly: { month: number; kwh_per_kwp: number | null; irradiation_kwh_m2: number | null }[];
}

const n = (v: number | string | null | undefined): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const round = (v: number | null, d = 2) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);

/** Yield per kWp: energy values are divided by the simulated peak power, whatever was asked for. */
export function parsePvcalc(answer: unknown): PvYield {
  const { inputs, outputs } = shaped(PvcalcShape, answer, 'PVGIS PVcalc');
  const totals = outputs.totals.fixed;
  const peak = inputs.pv_module.peak_power;
  const perKwp = (v: number | string | null | undefined) => {
    const x = n(v);
    return x === null ? null : round(x / peak);
  };
  const fixed = inputs.mounting_system?.fixed;
  return {
    annual_kwh_per_kwp: perKwp(totals.E_y),
    annual_irradiation_kwh_m2: n(totals['H(i)_y']),
    year_to_year_sd_kwh_per_kwp: perKwp(totals.SD_y),
    total_loss_pct: n(totals.l_total),
    slope_deg: n(fixed?.slope?.value),
    azimuth_deg: n(fixed?.azimuth?.value),
    angles_optimised: fixed?.slope?.optimal ?? null,
    system_loss_pct: n(inputs.pv_module.system_loss),
    technology: inputs.pv_module.technology ?? null,
    radiation_db: inputs.meteo_data?.radiation_db ?? null,
    year_min: n(inputs.meteo_data?.year_min),
    year_max: n(inputs.meteo_data?.year_max),
    elevation_m: n(inputs.location?.elevation),
    monthly: (outputs.monthly?.fixed ?? []).map((m) => ({ month: m.month, kwh_per_kwp: perKwp(m.E_m), irradiation_kwh_m2: n(m['H(i)_m']) })),
  };
}
