import type { StationFacilityRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** A FaSta v2 facility; coordinates, state and operator may be missing. */
interface FastaFacility {
  equipmentnumber?: number;
  type?: string;
  description?: string | null;
  geocoordX?: number | null;
  geocoordY?: number | null;
  state?: string | null;
  stateExplanation?: string | null;
  stationnumber?: number | null;
  operatorname?: string | null;
}

export type Facility = Omit<StationFacilityRecord, 'distance_km'>;

const STATES: Record<string, StationFacilityRecord['state']> = { ACTIVE: 'active', INACTIVE: 'inactive', UNKNOWN: 'unknown' };

/** `GET /facilities` answers a bare array; some gateways wrap it as `{facilities: [...]}`. */
export function parseFacilities(body: unknown): Facility[] {
  const items = Array.isArray(body) ? body : (body as { facilities?: unknown } | null)?.facilities;
  if (!Array.isArray(items)) throw new UpstreamError('parse', 'FaSta answer is no list of facilities');
  const out: Facility[] = [];
  for (const f of items as FastaFacility[]) {
    const type = f.type === 'ELEVATOR' ? 'elevator' : f.type === 'ESCALATOR' ? 'escalator' : null;
    if (!type || typeof f.equipmentnumber !== 'number') continue;
    out.push({
      equipment_number: String(f.equipmentnumber),
      type,
      description: f.description?.trim() || null,
      state: STATES[(f.state ?? '').toUpperCase()] ?? 'unknown',
      state_explanation: f.stateExplanation?.trim() || null,
      station_number: typeof f.stationnumber === 'number' ? f.stationnumber : null,
      operator: f.operatorname?.trim() || null,
      lat: typeof f.geocoordY === 'number' ? f.geocoordY : null,
      lon: typeof f.geocoordX === 'number' ? f.geocoordX : null,
    });
  }
  return out;
}
