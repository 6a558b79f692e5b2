import { UpstreamError } from '../../core/upstream-error.ts';

/** PVcalc?outputformat=json (members used here). */
export interface PvcalcBody {
  inputs?: {
    location?: { latitude?: number; longitude?: number; elevation?: number };
    meteo_data?: { radiation_db?: string; year_min?: number; year_max?: number };
    mounting_system?: { fixed?: { slope?: { value?: number; optimal?: boolean }; azimuth?: { value?: number; optimal?: boolean } } };
    pv_module?: { technology?: string; peak_power?: number; system_loss?: number };
  };
  outputs?: {
    totals?: { fixed?: Record<string, number | string | null> };
    monthly?: { fixed?: Record<string, number | string | null>[] };
  };
}

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

/** Numbers, and numbers written as text (PVGIS sends l_spec as a string). */
const n = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const round = (v: number | null, d = 2) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);

/** Yield per kWp: energy values are divided by the simulated peak power, whatever was asked for. */
export function parsePvcalc(body: PvcalcBody): PvYield {
  const totals = body?.outputs?.totals?.fixed;
  if (!totals || typeof totals !== 'object') throw new UpstreamError('parse', 'PVGIS PVcalc without outputs.totals.fixed');
  const peak = n(body.inputs?.pv_module?.peak_power);
  if (peak === null || peak <= 0) throw new UpstreamError('parse', 'PVGIS PVcalc without a positive inputs.pv_module.peak_power');
  const perKwp = (v: unknown) => {
    const x = n(v);
    return x === null ? null : round(x / peak);
  };
  const fixed = body.inputs?.mounting_system?.fixed;
  const monthly = Array.isArray(body.outputs?.monthly?.fixed) ? body.outputs.monthly.fixed : [];
  return {
    annual_kwh_per_kwp: perKwp(totals.E_y),
    annual_irradiation_kwh_m2: n(totals['H(i)_y']),
    year_to_year_sd_kwh_per_kwp: perKwp(totals.SD_y),
    total_loss_pct: n(totals.l_total),
    slope_deg: n(fixed?.slope?.value),
    azimuth_deg: n(fixed?.azimuth?.value),
    angles_optimised: typeof fixed?.slope?.optimal === 'boolean' ? fixed.slope.optimal : null,
    system_loss_pct: n(body.inputs?.pv_module?.system_loss),
    technology: body.inputs?.pv_module?.technology ?? null,
    radiation_db: body.inputs?.meteo_data?.radiation_db ?? null,
    year_min: n(body.inputs?.meteo_data?.year_min),
    year_max: n(body.inputs?.meteo_data?.year_max),
    elevation_m: n(body.inputs?.location?.elevation),
    monthly: monthly
      .filter((m) => n(m.month) !== null)
      .map((m) => ({ month: n(m.month) as number, kwh_per_kwp: perKwp(m.E_m), irradiation_kwh_m2: n(m['H(i)_m']) })),
  };
}
