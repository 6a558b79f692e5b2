import type { ParkingSiteRecord } from '../../core/records/mobility.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { FEEDS } from './source.ts';
import { splitStreet } from '../../core/address.ts';
import { occupancyShare, zoned } from './sites.ts';

const optText = z.string().nullish();
const optNumber = z.number().nullish();

/** Karlsruhe's WFS layer `TBA:parkhaeuser` as GeoJSON (WGS 84); flags are "T"/"F". */
const KaShape = z.looseObject({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.looseObject({
      properties: z
        .looseObject({
          id: z.union([z.number(), z.string()]).nullish(),
          gemeinde: optText,
          parkhaus_name: optText,
          gesamte_parkplaetze: optNumber,
          freie_parkplaetze: optNumber,
          echtzeit_status: optText,
          echtzeit_belegung: optText,
          geschlossen: optText,
          parkhaus_strasse: optText,
          parkhaus_plz: optText,
          parkhaus_gemeinde: optText,
          stand_freieparkplaetze: optText,
        })
        .nullish(),
      geometry: z.looseObject({ coordinates: z.array(z.number()).nullish() }).nullish(),
    }),
  ),
});

/** The layer also holds the car parks of neighbouring towns (Rastatt, Ettlingen ...): only `gemeinde` Karlsruhe is kept. */
export function parseKarlsruheParkhaeuser(body: unknown, municipality = 'Karlsruhe'): ParkingSiteRecord[] {
  const fc = shaped(KaShape, body, 'Karlsruhe car park WFS');
  return fc.features
    .filter((f) => f.properties?.gemeinde === municipality)
    .map((f) => {
      const p = f.properties ?? {};
      const live = p.echtzeit_belegung === 'T';
      const capacity = typeof p.gesamte_parkplaetze === 'number' && p.gesamte_parkplaetze > 0 ? p.gesamte_parkplaetze : null;
      // "Störung": the count is not trustworthy, so it is not passed on.
      const fault = (p.echtzeit_status ?? '').toLowerCase().startsWith('st');
      const free = live && !fault && typeof p.freie_parkplaetze === 'number' ? p.freie_parkplaetze : null;
      const [lon = NaN, lat = NaN] = f.geometry?.coordinates ?? [];
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
