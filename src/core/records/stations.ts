import { lat, list, lon, postCode, record, z, lazy, type Infer } from '../schema.ts';
import { typeRef } from '../type-ref.ts';

/** One national-rail station of a city (DB StaDa). */
export const StationRecord = lazy(() =>
  record({
    eva: z.string().meta({ description: 'Main EVA number of the station: the id of /api/v1/stations/{eva}/departures' }),
    evas: z.array(z.string()).meta({ description: 'Every EVA number of the station (big stations have several, e.g. upper and lower level)' }),
    name: z.string().meta({ description: 'Station name as DB writes it' }),
    category: z.number().int().min(1).max(7).meta({ description: 'DB station category, 1 (largest hubs) to 7 (smallest stops)' }),
    lat: lat(),
    lon: lon(),
    post_code: postCode(),
  }),
);
export type StationRecord = Infer<typeof StationRecord>;

/** The city's stations, sorted by name (a plain list: the type's own ?limit= caps it, it is not paged). */
export const StationList = lazy(() => list(StationRecord(), "The city's national-rail stations, sorted by name"));
export type StationList = Infer<typeof StationList>;

/** The stations data type, for readings that look it up. */
export const STATIONS = typeRef<StationList>('stations');
