import type { Adapter } from '../../core/data-type.ts';
import type { HospitalRecord } from '../../core/records/hospitals.ts';
import { hospitalsOf, parseLocations, type Hospital } from './locations.ts';

/** The national list once a day (shared by all cities), filtered to the city. */
export const cityHospitals: Adapter<HospitalRecord[]> = async ({ city, http, cached }) => {
  const all = await cached<Hospital[]>('locations', { freshSeconds: 86_400, staleSeconds: 30 * 86_400 }, async () =>
    parseLocations(await http.json<unknown>('/fileadmin/json/locations.json')),
  );
  const mine = hospitalsOf(all, city);
  if (mine.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the Bundes-Klinik-Atlas lists no site in this city' } };
  return { data: mine };
};
