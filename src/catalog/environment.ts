import { dataType, type DataType } from '../core/data-type.ts';
import { WEATHER } from '../core/records/weather.ts';
import { sustainabilityPrecompute } from '../jobs/sustainability-precompute.ts';
import { solarRoofsPrecompute } from '../jobs/solar-roofs-precompute.ts';
import { WeatherRecord, WeatherWarningsRecord } from '../core/records/weather.ts';
import { AirRecord, AirStationRecord } from '../core/records/air.ts';
import { BRIGHTSKY, BRIGHTSKY_ALERTS } from '../sources/brightsky/source.ts';
import { currentWeather, weatherWarnings } from '../sources/brightsky/adapters.ts';
import { weatherBackfill } from '../sources/brightsky/backfill.ts';
import { UBA } from '../sources/uba/source.ts';
import { AIR_MAX_KM, CITY_MATCH_MAX_KM, CITY_RADIUS_KM, WINDOW_HOURS, cityStations, nearestReadings, summariseAirStations } from '../sources/uba/adapters.ts';
import { HOURLY_SCOPE } from '../sources/uba/components.ts';
import { PollenUvRecord } from '../core/records/pollen.ts';
import { DWD_HEALTH } from '../sources/dwd-health/source.ts';
import { pollenUv, pollenUvSummary } from '../sources/dwd-health/adapters.ts';
import { FloodRecord, WaterLevelRecord } from '../core/records/water.ts';
import { PEGELONLINE } from '../sources/pegelonline/source.ts';
import { MAX_GAUGES, MAX_RADIUS_KM, MIN_RADIUS_KM, gaugeLevels, nearestGauge } from '../sources/pegelonline/adapters.ts';
import { WATER_LEVEL_CITIES } from '../sources/pegelonline/coverage.ts';
import { waterLevelBackfill } from '../sources/pegelonline/backfill.ts';
import { FireDangerRecord } from '../core/records/fire.ts';
import { LHP } from '../sources/lhp/source.ts';
import { floodLevels } from '../sources/lhp/adapters.ts';
import { FLOOD_CITIES } from '../sources/lhp/gauges.ts';
import { SolarRecord, SolarRoofsRecord } from '../core/records/solar.ts';
import { PVGIS } from '../sources/pvgis/source.ts';
import { solar } from '../sources/pvgis/adapters.ts';
import { ENERGIEATLAS_NRW } from '../sources/energieatlas-nrw/source.ts';
import { SOLAR_ROOFS_CITIES, storedSolarRoofs } from '../sources/energieatlas-nrw/stored.ts';
import { MASTR } from '../sources/mastr/source.ts';
import { mastrSolarRoofs } from '../sources/mastr/solar-roofs.ts';
import { CITIES } from '../cities/register.ts';
import { BathingWaterRecord } from '../core/records/bathing.ts';
import { EEA_BATHING } from '../sources/eea-bathing/source.ts';
import { DEFAULT_RADIUS_KM, MAX_RADIUS_KM as BATHING_MAX_KM, bathingSites } from '../sources/eea-bathing/adapters.ts';
import { SustainabilityRecord } from '../core/records/sustainability.ts';
import { WEGWEISER_SDG } from '../sources/wegweiser/source.ts';
import { INKAR } from '../sources/inkar/source.ts';
import { storedSustainability } from '../sources/inkar/stored.ts';
import { sdgIndicators } from '../sources/wegweiser/sustainability.ts';
import { DWD_FIRE } from '../sources/dwd-fire/source.ts';
import { FIRE_MAX_AGE_HOURS, FIRE_MAX_KM, fireDanger } from '../sources/dwd-fire/adapters.ts';

/** Environment and weather: declarations only (adapters live in their source modules). */
export const ENVIRONMENT_TYPES: DataType[] = [
  dataType({
    type: WEATHER.type,
    history: {
      fields: [
        { name: 'temperature_c', path: 'temperature_c', unit: '°C' },
        { name: 'relative_humidity_pct', path: 'relative_humidity_pct', unit: '%' },
        { name: 'wind_speed_kmh', path: 'wind_speed_kmh', unit: 'km/h' },
        { name: 'precipitation_mm_60min', path: 'precipitation_mm_60min', unit: 'mm' },
      ],
      backfill: weatherBackfill,
    },
    label: 'Wetter',
    label_en: 'Weather',
    group: 'environment',
    summary: 'Current weather observed by the national weather service (DWD) nearest to the city',
    record: WeatherRecord,
    cache: { freshSeconds: 600, staleSeconds: 7200 },
    compare: { resource: 'weather', value: 'temperature_c' },
    highlight: 'weather',
    example: { city: 'freiburg-im-breisgau' },
    sources: [{ role: 'primary', source: BRIGHTSKY, adapter: currentWeather }],
  }),
  dataType({
    type: 'weather-warnings',
    label: 'Unwetterwarnungen',
    label_en: 'Weather warnings',
    group: 'environment',
    summary: 'Active official weather warnings of the national weather service (DWD) for the city',
    description:
      "DWD warnings (CAP, municipality cells) through Bright Sky, which serves one cell per request as JSON; DWD's own WarnApp feed only " +
      'has district cells and is JSONP. The cell is "8" + the AGS; when Bright Sky does not know that cell, the register point is used. ' +
      "Texts are DWD's, unchanged, in German (*_de) and English (*_en). No active warning answers source_status no_data (data null, " +
      'meta.reason says so), as for other "nothing active" answers; the warn cell is in meta.warn_cell.',
    record: WeatherWarningsRecord,
    cache: { freshSeconds: 300, staleSeconds: 900 },
    stream: true,
    compare: { resource: 'weather-warnings' },
    example: { city: 'braunschweig' },
    sources: [{ role: 'primary', source: BRIGHTSKY_ALERTS, adapter: weatherWarnings }],
  }),
  dataType({
    type: 'air',
    history: {
      fields: [
        { name: 'no2', path: 'readings.no2.value', unit: 'µg/m³' },
        { name: 'pm10', path: 'readings.pm10.value', unit: 'µg/m³' },
        { name: 'pm25', path: 'readings.pm25.value', unit: 'µg/m³' },
      ],
    },
    label: 'Luftqualität',
    label_en: 'Air quality',
    group: 'environment',
    summary: 'Latest hourly PM10, PM2.5, NO2, O3 and SO2 readings of the nearest federal/state measuring stations',
    description:
      `One-hour means (UBA scope ${HOURLY_SCOPE.code}) from the Umweltbundesamt air data API. Each pollutant comes from the nearest active ` +
      `station (within ${AIR_MAX_KM} km) that reported it in the last ${WINDOW_HOURS} hours, so readings may come from different stations; ` +
      'every reading names its station and distance. UBA times are CET without summer time and are given here as zoned Europe/Berlin times. ' +
      'Values are provisional (not yet validated by the Länder). UBA is asked once an hour per pollutant for all stations at once, ' +
      'shared by every city, so an hour UBA publishes late appears from the next full hour on.',
    path: '/api/v1/live/{city}/air',
    aliases: ['/api/v1/cities/{city}/air'],
    record: AirRecord,
    cache: { freshSeconds: 900, staleSeconds: 3600 },
    compare: { resource: 'air', value: 'readings.no2.value' },
    highlight: 'air',
    example: { city: 'braunschweig' },
    sources: [{ role: 'primary', source: UBA, adapter: nearestReadings }],
  }),
  dataType({
    type: 'air-uba',
    history: {
      summarise: summariseAirStations,
      fields: [
        { name: 'nearest_index', path: 'nearest_index', unit: 'index 1-5' },
        { name: 'stations_with_index', path: 'stations_with_index', unit: 'stations' },
      ],
    },
    label: 'Luftmessstationen',
    label_en: 'Air monitoring stations',
    group: 'environment',
    summary: 'All active air quality stations of the city with their latest air quality index and component values',
    description:
      'Stations are those whose UBA municipality ("station city") is the city (compared without qualifiers such as "am Main" and within ' +
      `${CITY_MATCH_MAX_KM} km of the register point, because UBA gives no municipality key); when UBA names no station after the city, the ` +
      `active stations within ${CITY_RADIUS_KM} km are listed instead (meta.matched_by says which). Values are UBA's airquality endpoint: the ` +
      `latest hour of the last ${WINDOW_HOURS} with the index 0 (very good) to 4 (very poor) and the components it is based on (one UBA call per station and hour, shared with neighbouring cities).`,
    path: '/api/v1/live/{city}/air-uba',
    aliases: ['/api/v1/cities/{city}/air-uba'],
    record: AirStationRecord,
    list: true,
    cache: { freshSeconds: 900, staleSeconds: 3600 },
    example: { city: 'braunschweig' },
    sources: [{ role: 'primary', source: UBA, adapter: cityStations }],
  }),
  dataType({
    type: 'pollen-uv',
    history: {
      fields: [
        { name: 'pollen_max_today', path: 'pollen_max_today', unit: 'level 0-3' },
        { name: 'uv_today', path: 'uv_today', unit: 'UV index' },
      ],
    },
    label: 'Pollenflug und UV-Index',
    label_en: 'Pollen and UV index',
    group: 'environment',
    summary: "DWD pollen flight forecast (8 types) for the city's pollen partregion and the DWD UV index forecast",
    description:
      "Pollen: DWD's s31fg.json (Pollenflug-Gefahrenindex), issued daily around 11:00, for the DWD partregion the city lies in (a curated " +
      "map, see the register provenance). Levels are given as DWD publishes them (0, 0-1, 1, 1-2, 2, 2-3, 3) plus a number 0 to 3; DWD's " +
      '-1 (no forecast, e.g. outside the season) is null with a reason. When the day of issue is before the current day, "today" ' +
      "describes that earlier day: pollen_stale is true and meta.stale_reason says so. UV: DWD's uvi.json, the daily maximum UV " +
      "index of the city's own UV measurement city or else of the nearest lowland one (mountain stations are never used), named " +
      'with its distance. Both are regional forecasts, not city-exact values.',
    record: PollenUvRecord,
    cache: { freshSeconds: 3600, staleSeconds: 86400 },
    compare: { resource: 'pollen-uv', summarise: pollenUvSummary, value: 'pollen_max_today' },
    example: { city: 'hamburg' },
    sources: [{ role: 'primary', source: DWD_HEALTH, adapter: pollenUv }],
  }),
  dataType({
    type: 'water-level',
    history: { fields: [{ name: 'value_cm', path: 'value_cm', unit: 'cm' }], backfill: waterLevelBackfill },
    label: 'Pegelstände',
    label_en: 'Water levels',
    group: 'environment',
    summary: 'Current water levels of the federal waterway gauges in the city (PEGELONLINE, WSV)',
    description:
      "Gauges of PEGELONLINE (federal waterways only) within a radius of the city point: the radius of a circle of the city's area " +
      `plus 2 km, between ${MIN_RADIUS_KM} and ${MAX_RADIUS_KM} km (meta.radius_km). Per gauge the current value of the W series in cm ` +
      'above the gauge zero, the gauge zero in m above NHN, the state against mean low/high water (MNW/MHW) and the shipping levels ' +
      `(NSW/HSW), the trend where PEGELONLINE gives one, and the time with its zone; nearest first, at most ${MAX_GAUGES}. Cities ` +
      'without a federal waterway answer not_covered (meta.covered_cities); rivers run by the Länder (e.g. the Isar) have no gauge here.',
    path: '/api/v1/live/{city}/water-level',
    aliases: ['/api/v1/cities/{city}/water-level'],
    record: WaterLevelRecord,
    list: true,
    cache: { freshSeconds: 900, staleSeconds: 3600 },
    stream: true,
    coverage: { cities: WATER_LEVEL_CITIES, note: 'cities on a federal waterway (PEGELONLINE covers only those)' },
    compare: { resource: 'water-level', summarise: nearestGauge, value: 'value_cm' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: PEGELONLINE, adapter: gaugeLevels }],
  }),
  dataType({
    type: 'fire-danger',
    label: 'Waldbrand- und Graslandfeuergefahr',
    label_en: 'Fire danger',
    group: 'environment',
    summary: 'DWD woodland fire danger index (WBI) and grassland fire index (GLFI) of the nearest DWD station, levels 1 to 5',
    description:
      'Station forecasts of the DWD Climate Data Center (derived_germany/fire_danger_index): the nearest station of the woodland ' +
      `station list (cached for a day) within ${FIRE_MAX_KM} km, named with its distance; the values are the station's, not the city's. ` +
      'Levels 1 (very low) to 5 (very high) for the day of the model run and six days after it, with German and English labels; ' +
      'the grassland index where DWD publishes a grassland file for the same station, else grassland is null. ' +
      `DWD computes the index in the season (March to October); when the newest run is older than ${FIRE_MAX_AGE_HOURS} hours the ` +
      'answer is no_data with the reason and the time of the last run, never old values shown as current.',
    record: FireDangerRecord,
    cache: { freshSeconds: 3600, staleSeconds: 6 * 3600 },
    compare: { resource: 'fire-danger', value: 'level_today' },
    example: { city: 'braunschweig' },
    sources: [{ role: 'primary', source: DWD_FIRE, adapter: fireDanger }],
  }),
  dataType({
    type: 'flood',
    history: { fields: [{ name: 'max_warning_level', path: 'max_warning_level', unit: 'level' }] },
    label: 'Hochwasser',
    label_en: 'Flood warnings',
    group: 'environment',
    summary: 'Flood warning level (Meldestufe) of the curated city gauge(s) from the flood centres of the Länder (LHP)',
    description:
      'The Länderübergreifendes Hochwasserportal (hochwasserzentralen.de) per curated city gauge: warning level 0 (none) to 4 with the ' +
      "flood centre's wording, water level and discharge as published (German number format read into numbers, the texts kept), the " +
      'time of the value and the "Stand" line the portal requires beside its source link. The data are unchecked raw data of the ' +
      "Länder. The webservice needs the session token of the portal's home page; it is read from there, kept for five minutes and " +
      'read again when the service answers empty. Cities without a curated gauge answer not_covered (meta.covered_cities).',
    path: '/api/v1/live/{city}/flood',
    aliases: ['/api/v1/cities/{city}/flood'],
    record: FloodRecord,
    cache: { freshSeconds: 300, staleSeconds: 1800 },
    stream: true,
    coverage: { cities: FLOOD_CITIES, note: 'cities with a curated LHP gauge that carries the city name' },
    compare: { resource: 'flood', value: 'max_warning_level' },
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: LHP, adapter: floodLevels }],
  }),
  dataType({
    type: 'solar',
    label: 'Solarstrahlung und PV-Ertrag',
    label_en: 'Solar irradiance and PV yield',
    group: 'environment',
    summary: 'Live global irradiance (DWD via Bright Sky) and the long-term PV yield per kWp at the city point (PVGIS)',
    description:
      "Two parts, each naming its source. Irradiance: the weather data type's global radiation of the shortest window Bright Sky " +
      'reports (kWh/m² over 10, 30 or 60 minutes) as a mean power in W/m² (× 6000, × 2000 or × 1000: 1 kWh = 3.6 MJ); null when ' +
      'the observation carries no radiation (meta.irradiance_reason). PV yield: PVGIS PVcalc (API version pinned in the base URL) ' +
      'for 1 kWp with 14 % system losses and optimal angles: yearly and monthly output per kWp and irradiation on the module ' +
      "plane, cached for 30 days because it is a long-term mean. The envelope's attribution is PVGIS'; the irradiance part carries DWD's.",
    record: SolarRecord,
    cache: { freshSeconds: 600, staleSeconds: 7200 },
    compare: { resource: 'solar', value: 'pv_yield.annual_kwh_per_kwp' },
    example: { city: 'freiburg-im-breisgau' },
    sources: [{ role: 'primary', source: PVGIS, adapter: solar }],
    lookups: [WEATHER],
  }),
  dataType({
    type: 'solar-roofs',
    label: 'Photovoltaik auf Dächern',
    label_en: 'Rooftop solar',
    group: 'environment',
    summary:
      'Installed photovoltaics per municipality (rooftop, buildings, plug-in, ground-mounted): NRW Energieatlas for NRW cities, the Marktstammdatenregister elsewhere',
    description:
      "Installed PV per municipality, matched by AGS. NRW cities: precomputed weekly from the state's open per-municipality file, the " +
      'newest reference year published (Energieatlas NRW by LANUK, from the Marktstammdatenregister), with number of installations, ' +
      'gross capacity in MW and estimated yearly yield in GWh for rooftop, building, plug-in and ground-mounted installations. Every ' +
      "other city: the PV units in operation the Marktstammdatenregister lists with the city's AGS today (read daily), grouped by " +
      'where they stand; the register does not tell roofs from facades (buildings holds both, rooftop is null) and states no yields. ' +
      'Roof potential (solar cadastre) is not included: no state publishes it per municipality with an open licence and a stable ' +
      'URL that could be verified.',
    record: SolarRoofsRecord,
    cache: 'stored',
    coverage: { cities: SOLAR_ROOFS_CITIES, note: 'NRW cities from the Energieatlas NRW file; every other city from the Marktstammdatenregister' },
    compare: { resource: 'solar-roofs', value: 'total.capacity_mw' },
    example: { city: 'wuppertal' },
    sources: [
      { role: 'primary', source: ENERGIEATLAS_NRW, adapter: storedSolarRoofs, jobs: [solarRoofsPrecompute] },
      {
        role: 'primary',
        for: CITIES.map((c) => c.slug).filter((slug) => !SOLAR_ROOFS_CITIES.includes(slug)),
        source: MASTR,
        adapter: mastrSolarRoofs,
        cache: { freshSeconds: 86400, staleSeconds: 14 * 86400 },
      },
    ],
  }),
  dataType({
    type: 'bathing-water',
    label: 'Badegewässerqualität',
    label_en: 'Bathing water quality',
    group: 'environment',
    summary: 'EU bathing sites around the city with their official quality class of the latest season (EEA, Directive 2006/7/EC)',
    description:
      "The European Environment Agency's bathing water services: the newest season's service is found in the service directory " +
      '(the year is part of its name) and the layer by its fields, both looked up once a day (when the directory cannot be read, the ' +
      'configured fallback layer is queried; meta.layer_discovered says which). Sites of Germany within the radius ' +
      '(km, default 25) of the city point, all pages of the 2,000-record answers followed; per site the class Excellent, Good, ' +
      'Sufficient, Poor or Not classified (with the German term) and the link to its bathing water profile. A yearly ' +
      'classification, not live measurements. No site in reach (inland cities): no_data.',
    params: [
      {
        name: 'radius_km',
        type: 'integer',
        min: 1,
        clampMax: BATHING_MAX_KM,
        default: DEFAULT_RADIUS_KM,
        description: `Search radius around the city point in km (default ${DEFAULT_RADIUS_KM}, values above ${BATHING_MAX_KM} are clamped)`,
      },
    ],
    record: BathingWaterRecord,
    list: true,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    example: { city: 'berlin' },
    sources: [{ role: 'primary', source: EEA_BATHING, adapter: bathingSites }],
  }),
  dataType({
    type: 'sustainability',
    label: 'Nachhaltigkeit (SDG-Indikatoren)',
    label_en: 'Sustainability (SDG indicators)',
    group: 'environment',
    summary: 'SDG-related indicators for the city from INKAR (BBSR) with id, label, unit, value, year and SDG goal',
    description:
      "Precomputed from the BBSR's INKAR bulk download (one ZIP per edition, the newest found): a declared set of indicators " +
      '(INKAR Kuerzel of the area LRB) on poverty, health care and school access, long-term unemployment, broadband, public ' +
      'transport access, living space and density, each with the SDG goal it reports on; per indicator the value of the newest ' +
      "year. Values are the city's own Gemeinde values, or for a kreisfreie city its Kreis values (the same territory); a " +
      "kreisangehörige city never gets its district's value (no value: no_data). Wegweiser Kommune's SDG topic is the " +
      'alternative source, off by default (WEGWEISER_SDG_ENABLED) while its terms are unverified; it answers only with INKAR off.',
    record: SustainabilityRecord,
    cache: 'stored',
    example: { city: 'koeln' },
    sources: [
      { role: 'primary', source: INKAR, adapter: storedSustainability, jobs: [sustainabilityPrecompute] },
      {
        role: 'stand-in',
        source: WEGWEISER_SDG,
        adapter: sdgIndicators,
        cache: { freshSeconds: 86400, staleSeconds: 30 * 86400 },
        note: 'With INKAR switched off and WEGWEISER_SDG_ENABLED=true: the indicators of the Wegweiser Kommune topic "nachhaltigkeit" (no SDG goal or level per indicator).',
      },
    ],
  }),
];
