import { distanceKm } from '../../cities/register.ts';
import type { EventType, RoadEvent } from '../../core/records/roads.ts';
import { toBerlinIso } from '../../core/time.ts';
import { find, findAll, textOf, type XNode } from './datex2.ts';

/** DATEX II v2 situation record types (xsi:type) that are works; closures come from the management type. */
const WORKS = new Set(['MaintenanceWorks', 'ConstructionWorks', 'Roadworks']);
const CLOSED = new Set(['roadClosed', 'carriagewayClosures']);

export function zoned(v: string | null): string | null {
  if (!v || !/(Z|[+-]\d{2}:?\d{2})$/.test(v)) return null;
  const ms = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : toBerlinIso(ms);
}

/** The record's comments (generalPublicComment, then nonGeneralPublicComment), German first where the feed tags languages. */
export function comments(rec: XNode): string[] {
  const values = findAll(rec, 'generalPublicComment').flatMap((c) => findAll(c, 'value'));
  const de = values.filter((v) => !v.attrs.lang || v.attrs.lang.toLowerCase().startsWith('de'));
  return (de.length ? de : values).map((v) => v.text).filter((t) => t !== '');
}

/** A point of the record: pointCoordinates/locationForDisplay, else the first pair of a GML posList ("lat lon ..."). */
export function pointOf(rec: XNode): { lat: number; lon: number } | null {
  for (const name of ['locationForDisplay', 'pointCoordinates']) {
    const n = find(rec, name);
    const lat = Number(textOf(n ? find(n, 'latitude') : null));
    const lon = Number(textOf(n ? find(n, 'longitude') : null));
    if (n && Number.isFinite(lat) && Number.isFinite(lon) && lat !== 0 && lon !== 0) return { lat, lon };
  }
  const pos = textOf(find(rec, 'posList'))?.split(/\s+/).map(Number);
  if (pos && pos.length >= 2 && Number.isFinite(pos[0]) && Number.isFinite(pos[1])) return { lat: pos[0]!, lon: pos[1]! };
  return null;
}

function kindOf(rec: XNode): { type: EventType; blocked: boolean | null } {
  const management = textOf(find(rec, 'roadOrCarriagewayOrLaneManagementType'));
  if (management && CLOSED.has(management)) return { type: 'closure', blocked: true };
  if (WORKS.has(rec.attrs.type ?? '')) return { type: 'roadworks', blocked: null };
  return { type: 'warning', blocked: null };
}

function roadOf(rec: XNode): string | null {
  const number = textOf(find(rec, 'roadNumber'));
  if (number) return number;
  const name = find(rec, 'roadName');
  return name ? textOf(find(name, 'value')) : null;
}

/** One DATEX II v2 situationRecord in the shared event vocabulary. */
export function parseSituationRecord(rec: XNode, source: string, origin: { lat: number; lon: number }): RoadEvent {
  const { type, blocked } = kindOf(rec);
  const at = pointOf(rec);
  const lines = comments(rec);
  const road = roadOf(rec);
  return {
    id: rec.attrs.id ?? null,
    type,
    source,
    title: lines[0] ?? rec.attrs.type ?? null,
    road,
    direction: textOf(find(rec, 'directionBound')) ?? textOf(find(rec, 'tpegDirection')),
    description: lines,
    start: zoned(textOf(find(rec, 'overallStartTime'))),
    end: zoned(textOf(find(rec, 'overallEndTime'))),
    future: null,
    blocked,
    delay_minutes: null,
    average_speed_kmh: null,
    abnormal_traffic: textOf(find(rec, 'abnormalTrafficType')),
    max_speed_kmh: null,
    max_width_m: null,
    length_km: null,
    lat: at?.lat ?? null,
    lon: at?.lon ?? null,
    distance_km: at ? Math.round(distanceKm(origin.lat, origin.lon, at.lat, at.lon) * 10) / 10 : null,
    geometry: at ? { type: 'Point', coordinates: [at.lon, at.lat] } : null,
    // DATEX II element names in snake_case: only the motorway feed keeps its camelCase raw names (spec).
    raw: {
      situation_record_type: rec.attrs.type ?? null,
      version: rec.attrs.version ?? null,
      severity: textOf(find(rec, 'severity')),
      probability_of_occurrence: textOf(find(rec, 'probabilityOfOccurrence')),
      situation_record_version_time: textOf(find(rec, 'situationRecordVersionTime')),
      road_or_carriageway_or_lane_management_type: textOf(find(rec, 'roadOrCarriagewayOrLaneManagementType')),
    },
  };
}
