import { date, int, lat, list, lon, num, record, text, z, lazy, type Infer } from '../schema.ts';

const coded = lazy(() =>
  record({
    code: int('Code in the Unfallatlas'),
    label: text('Meaning of the code (German, as the Unfallatlas documents it)'),
    accidents: int('Accidents'),
  }),
);

const point = lazy(() =>
  record({
    lat: lat(),
    lon: lon(),
    category: int('Most severe consequence: 1 killed, 2 seriously injured, 3 slightly injured'),
    kind: int('Kind of accident (UART 0–9)'),
    type: int('Type of accident (UTYP1 1–7)'),
    month: int('Month (1–12)'),
    hour: int('Hour of day (0–23)'),
    weekday: int('Day of week: 1 Sunday … 7 Saturday'),
    light: int('Light: 0 daylight, 1 twilight, 2 darkness'),
    involved: list(z.string(), 'Road users involved: bicycle, car, pedestrian, motorcycle, goods_vehicle, other'),
  }),
);

export const AccidentsRecord = lazy(() =>
  record({
    year: int('Year of the accidents'),
    accidents: int('Police-recorded accidents with personal injury in the municipality'),
    per_100k_inhabitants: num('Accidents per 100,000 inhabitants (population of the city register)', 'per 100,000'),
    population: int('Population the rate is based on'),
    population_date: date('Reference date of that population'),
    by_category: record(
      {
        killed: int('Accidents in which someone was killed'),
        seriously_injured: int('Accidents with seriously injured as the most severe consequence'),
        slightly_injured: int('Accidents with slightly injured as the most severe consequence'),
      },
      'Accidents by most severe consequence (UKATEGORIE)',
    ),
    by_type: list(coded(), 'Accidents by type (UTYP1), codes in ascending order'),
    by_kind: list(coded(), 'Accidents by kind (UART), codes in ascending order'),
    involving: record(
      {
        bicycle: int('Accidents with a bicycle involved'),
        car: int('Accidents with a car involved'),
        pedestrian: int('Accidents with a pedestrian involved'),
        motorcycle: int('Accidents with a motorcycle involved'),
        goods_vehicle: int('Accidents with a goods vehicle involved'),
        other: int('Accidents with another road user involved'),
      },
      'Accidents by road users involved (one accident can count in several)',
    ),
    points: list(point(), 'A capped sample of the accidents as points (about 50 m precision), in file order'),
    points_total_available: int('Accidents with coordinates in the file (the sample holds at most the cap)'),
    source_file: text('Unfallatlas file the figures come from'),
  }),
);
export type AccidentsRecord = Infer<typeof AccidentsRecord>;
export type AccidentPoint = AccidentsRecord['points'][number];
