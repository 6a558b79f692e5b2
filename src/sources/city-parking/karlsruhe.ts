import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { FEEDS } from './source.ts';
import { splitStreet } from '../../core/address.ts';
import { occupancyShare, zoned } from './sites.ts';

/** Karlsruhe's WFS layer `TBA:parkhaeuser` as GeoJSON (WGS 84); flags are "T"/"F". */
interface KaFeature {
  properties?: {
    id?: number;
    gemeinde?: string | null;
    parkhaus_name?: string | null;
    gesamte_parkplaetze?: number | null;
    freie_parkplaetze?: number | null;
    echtzeit_status?: string | null;
    echtzeit_belegung?: string | null;
    geschlossen?: string | null;
    parkhaus_strasse?: string | null;
    parkhaus_plz?: string | null;
    parkhaus_gemeinde?: string | null;
    stand_freieparkplaetze?: string | null;
  };
  geometry?: { coordinates?: [number, number] } | null;
}

/** The layer also holds the car parks of neighbouring towns (Rastatt, Ettlingen ...): only `gemeinde` Karlsruhe is kept. */
export function parseKarlsruheParkhaeuser(body: unknown, municipality = 'Karlsruhe'): ParkingSiteRecord[] {
  const fc = body as { type?: string; features?: KaFeature[] };
  if (!fc || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features))
    throw new UpstreamError('parse', 'Karlsruhe car park WFS answer is no FeatureCollection');
  return fc.features
    .filter((f) => f.properties?.gemeinde === municipality)
    .map((f) => {
      const p = f.properties ?? {};
      const live = p.echtzeit_belegung === 'T';
      const capacity = typeof p.gesamte_parkplaetze === 'number' && p.gesamte_parkplaetze > 0 ? p.gesamte_parkplaetze : null;
      // "Störung": the count is not trustworthy, so it is not passed on.
      const fault = (p.echtzeit_status ?? '').toLowerCase().startsWith('st');
      const free = live && !fault && typeof p.freie_parkplaetze === 'number' ? p.freie_parkplaetze : null;
      const [lon, lat] = f.geometry?.coordinates ?? [NaN, NaN];
      const state = p.geschlossen === 'T' ? 'closed' : fault ? 'unknown' : p.geschlossen === 'F' ? 'open' : null;
      return {
        id: `${FEEDS.karlsruhe.source}:${p.id ?? ''}`,
        name: p.parkhaus_name ?? null,
        ...splitStreet(p.parkhaus_strasse),
        post_code: p.parkhaus_plz?.trim() || null,
        place: p.parkhaus_gemeinde ?? p.gemeinde ?? null,
        lat: Number.isFinite(lat) ? lat : null,
        lon: Number.isFinite(lon) ? lon : null,
        capacity,
        free_spaces: free,
        occupancy_share: occupancyShare(free, capacity),
        state,
        live,
        updated_at: live && p.stand_freieparkplaetze ? zoned(Date.parse(p.stand_freieparkplaetze)) : null,
        source: FEEDS.karlsruhe.source,
        license: FEEDS.karlsruhe.license,
      } satisfies ParkingSiteRecord;
    });
}
