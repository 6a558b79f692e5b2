import { splitStreet } from '../../core/address.ts';
import type { FuelStationRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

export const FUELS = ['all', 'e5', 'e10', 'diesel'] as const;
export type Fuel = (typeof FUELS)[number];

/** `list.php` station: prices are numbers, or false/0/null when missing; `postCode` an integer. */
interface TkStation {
  id?: string;
  name?: string | null;
  brand?: string | null;
  street?: string | null;
  houseNumber?: string | null;
  postCode?: number | string | null;
  place?: string | null;
  lat?: number;
  lng?: number;
  dist?: number | null;
  isOpen?: boolean | null;
  e5?: number | false | null;
  e10?: number | false | null;
  diesel?: number | false | null;
  /** Only for a single-fuel query (type=e5|e10|diesel). */
  price?: number | false | null;
}

export interface TkList {
  ok?: boolean;
  status?: string;
  message?: string;
  stations?: TkStation[];
}

const price = (v: unknown): number | null => (typeof v === 'number' && v > 0 ? v : null);

/** Post code as an integer loses its leading zero (01067 -> 1067). */
function postCode(v: number | string | null | undefined): string | null {
  if (v === null || v === undefined || v === '') return null;
  const s = String(v).trim();
  return /^\d{1,5}$/.test(s) ? s.padStart(5, '0') : null;
}

/** An error answer comes with HTTP 200 and `ok: false`. */
export function parseStationList(body: unknown, fuel: Fuel): FuelStationRecord[] {
  const b = body as TkList;
  if (!b || typeof b !== 'object') throw new UpstreamError('parse', 'Tankerkönig answer is no object');
  if (b.ok !== true) throw new UpstreamError('parse', `Tankerkönig refused the request: ${b.message ?? b.status ?? 'no reason given'}`);
  if (!Array.isArray(b.stations)) throw new UpstreamError('parse', 'Tankerkönig answer without stations');
  return b.stations
    .filter((s) => typeof s.id === 'string')
    .map((s) => {
      const number = (s.houseNumber ?? '').trim();
      const address = number ? { street: s.street?.trim() || null, house_number: number } : splitStreet(s.street);
      const one = fuel === 'all' ? null : price(s.price);
      return {
        id: s.id ?? '',
        name: s.name?.trim() || null,
        brand: s.brand?.trim() || null,
        ...address,
        post_code: postCode(s.postCode),
        place: s.place?.trim() || null,
        lat: typeof s.lat === 'number' ? s.lat : null,
        lon: typeof s.lng === 'number' ? s.lng : null,
        distance_km: typeof s.dist === 'number' ? s.dist : null,
        is_open: typeof s.isOpen === 'boolean' ? s.isOpen : null,
        e5_eur: fuel === 'all' ? price(s.e5) : fuel === 'e5' ? one : null,
        e10_eur: fuel === 'all' ? price(s.e10) : fuel === 'e10' ? one : null,
        diesel_eur: fuel === 'all' ? price(s.diesel) : fuel === 'diesel' ? one : null,
      };
    });
}
