import { bool, date, int, list, num, record, text, time, lazy, type Infer } from '../schema.ts';

export const SolarRecord = lazy(() =>
  record({
    irradiance: record(
      {
        observed_at: time('End of the measuring window'),
        global_w_m2: num('Mean global irradiance over the window: energy × 6000 (10 min), × 2000 (30 min) or × 1000 (60 min)', 'W/m²'),
        window_minutes: int('Window the energy was measured over (the shortest Bright Sky gives)', 'min'),
        energy_kwh_m2: num('Global radiation energy of the window as DWD reports it', 'kWh/m²'),
        station: text('DWD station of the observation'),
        distance_km: num('Distance of the station from the city point', 'km'),
        attribution: text('Source of this part (DWD via Bright Sky)'),
      },
      'Live global irradiance from the weather data type (DWD observation via Bright Sky)',
    ).nullable(),
    pv_yield: record(
      {
        annual_kwh_per_kwp: num('Simulated yearly PV output per kWp installed (PVGIS E_y)', 'kWh/kWp'),
        annual_irradiation_kwh_m2: num('Yearly irradiation on the module plane (PVGIS H(i)_y)', 'kWh/m²'),
        year_to_year_sd_kwh_per_kwp: num('Year-to-year standard deviation of the output (PVGIS SD_y) per kWp', 'kWh/kWp'),
        total_loss_pct: num('Total loss from angle of incidence, spectrum, temperature and system (PVGIS l_total, negative)', '%'),
        slope_deg: num('Module slope used (optimised)', '°'),
        azimuth_deg: num('Module azimuth used (0 = south, optimised)', '°'),
        angles_optimised: bool('True when PVGIS chose slope and azimuth'),
        system_loss_pct: num('System losses assumed', '%'),
        technology: text('Module technology simulated, e.g. c-Si'),
        peak_power_kwp: num('Peak power the values are normalised to', 'kWp'),
        radiation_db: text('Radiation database, e.g. PVGIS-SARAH3'),
        year_min: int('First year of the radiation data'),
        year_max: int('Last year of the radiation data'),
        elevation_m: num('Elevation of the point', 'm'),
        api_version: text('PVGIS API version queried (pinned)'),
        monthly: list(
          record({
            month: int('Month 1 to 12'),
            kwh_per_kwp: num('Mean monthly output per kWp (PVGIS E_m)', 'kWh/kWp'),
            irradiation_kwh_m2: num('Mean monthly irradiation on the module plane (PVGIS H(i)_m)', 'kWh/m²'),
          }),
          'Monthly means',
        ),
        attribution: text('Source of this part (PVGIS)'),
      },
      'Long-term PV yield at the city point from PVGIS (1 kWp, 14 % system loss, optimal angles)',
    ),
  }),
);
export type SolarRecord = Infer<typeof SolarRecord>;

const installed = lazy(() =>
  record({
    installations: int('Number of PV installations in operation'),
    capacity_mw: num('Gross rated capacity', 'MW'),
    yield_gwh: num('Estimated yearly electricity yield', 'GWh'),
  }).nullable(),
);

export const SolarRoofsRecord = lazy(() =>
  record({
    ags: text('Municipality key (AGS)'),
    municipality: text('Municipality as the state source names it'),
    year: int('Reference year of the installed stock'),
    stand: date('Date of the data (Stand)'),
    data_basis: text('Sources the state names, e.g. "BNA, MaStR, LANUK"'),
    rooftop: installed().meta({ description: 'Rooftop installations (Dach)' }),
    buildings: installed().meta({ description: 'All installations on buildings (Gebäude: roofs and facades)' }),
    plug_in: installed().meta({ description: 'Plug-in (balcony) installations (Stecker)' }),
    ground_mounted: installed().meta({ description: 'Ground-mounted installations (Freifläche)' }),
    total: installed().meta({ description: 'All installations (gesamt)' }),
  }),
);
export type SolarRoofsRecord = Infer<typeof SolarRoofsRecord>;
