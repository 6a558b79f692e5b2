import type { Adapter } from '../../core/data-type.ts';
import type { CountingStation, LowEmissionZone, RoadEvent } from '../../core/records/roads.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { find, readDatex, textOf, type Datex } from './datex2.ts';
import { parseSiteMeasurements } from './measured.ts';
import { pullSubscription } from './pull.ts';
import { comments, parseSituationRecord, pointOf, zoned } from './situation.ts';
import { HANNOVER_SUBSCRIPTION, KIEL_SUBSCRIPTION, KOELN_LEZ_SUBSCRIPTION } from './sources.ts';

/** Situation records farther than this from the city point are left out (regional feeds reach beyond the city). */
export const CITY_RADIUS_KM = 30;

const NOTHING = 'the Mobilithek subscription is active but has nothing to deliver right now (HTTP 422 or an empty answer)';

/** Pull and stream-read one subscription; null when it has nothing to deliver. */
async function pull(http: Parameters<Adapter<unknown>>[0]['http'], subscription: string, record: string, publication: string): Promise<Datex | null> {
  const body = await pullSubscription(http, subscription);
  if (body === null) return null;
  const d = readDatex(body, record);
  if (d.publication !== null && d.publication !== publication) throw new UpstreamError('parse', `Mobilithek: expected ${publication}, got ${d.publication}`);
  if (d.publication === null && d.records.length === 0) throw new UpstreamError('parse', `Mobilithek: the answer is no DATEX II ${publication}`);
  return d;
}

/** Hannover's traffic messages (DATEX II v2 SituationPublication), within the city radius. */
export const hannoverTrafficReports: Adapter<RoadEvent[]> = async ({ http, city }) => {
  const d = await pull(http, HANNOVER_SUBSCRIPTION, 'situationRecord', 'SituationPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const events = d.records
    .map((r) => parseSituationRecord(r, 'mobilithek-hannover', city))
    .filter((e) => e.distance_km === null || e.distance_km <= CITY_RADIUS_KM);
  const as_of = zoned(d.publicationTime);
  if (events.length === 0)
    return { data: null, status: 'no_data', as_of, meta: { reason: `no traffic message within ${CITY_RADIUS_KM} km`, radius_km: CITY_RADIUS_KM } };
  return { data: events, as_of, meta: { count: events.length, radius_km: CITY_RADIUS_KM } };
};

/** Kiel's permanent counting stations (DATEX II v2 MeasuredDataPublication): vehicles and bicycles per site. */
export const kielCountingStations: Adapter<CountingStation[]> = async ({ http }) => {
  const d = await pull(http, KIEL_SUBSCRIPTION, 'siteMeasurements', 'MeasuredDataPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const stations = d.records.map((s) => parseSiteMeasurements(s, d.publicationTime));
  const as_of = zoned(d.publicationTime);
  if (stations.length === 0) return { data: null, status: 'no_data', as_of, meta: { reason: 'the publication lists no counting site' } };
  return { data: stations, as_of, meta: { count: stations.length } };
};

/** Köln's low-emission zone as the city publishes it (DATEX II v2 SituationPublication records). */
export const koelnLowEmissionZone: Adapter<LowEmissionZone[]> = async ({ http }) => {
  const d = await pull(http, KOELN_LEZ_SUBSCRIPTION, 'situationRecord', 'SituationPublication');
  if (!d) return { data: null, status: 'no_data', meta: { reason: NOTHING } };
  const zones: LowEmissionZone[] = d.records.map((r) => {
    const lines = comments(r);
    const at = pointOf(r);
    return {
      id: r.attrs.id ?? null,
      situation_type: r.attrs.type ?? null,
      name: lines[0] ?? null,
      rules: lines.slice(1),
      start: zoned(textOf(find(r, 'overallStartTime'))),
      end: zoned(textOf(find(r, 'overallEndTime'))),
      lat: at?.lat ?? null,
      lon: at?.lon ?? null,
      raw: { situationRecordType: r.attrs.type ?? null, version: r.attrs.version ?? null },
    };
  });
  const as_of = zoned(d.publicationTime);
  if (zones.length === 0) return { data: null, status: 'no_data', as_of, meta: { reason: 'the publication lists no zone record' } };
  return { data: zones, as_of, meta: { count: zones.length } };
};
