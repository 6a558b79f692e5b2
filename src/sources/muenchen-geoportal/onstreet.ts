import type { Adapter } from '../../core/data-type.ts';
import type { OnStreetParkingRecord } from '../../core/records/mobility.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { delimitedObjects } from '../../core/delimited.ts';

export const SEGMENT_LAYER = 'mor_wfs:ruhver_parkseiten_line';
export const ZONE_LAYER = 'mor_wfs:ruhver_prm_gebiete_poly';
/** Only the attributes used, no geometry: the section layer has about 14,000 lines. */
export const SEGMENT_FIELDS = 'strasse,angebot,parkregel_gruppe,prm_name';
export const ZONE_FIELDS = 'name,status,massnahme,ueberwachung,eroeffnung,einzeluebersicht_link';
export const ONSTREET_CITIES: readonly string[] = ['muenchen'];

type Row = Record<string, string>;

/** GeoServer's CSV output: a header row (FID first, then the asked properties), comma separated, quoted where needed. */
export function parseWfsCsv(text: string, required: readonly string[], what: string): Row[] {
  return delimitedObjects(text, { label: what, delimiter: ',', trim: false, required });
}

const clean = (v: string | undefined) => (v ?? '').replace(/\s+/g, ' ').trim() || null;
const spaces = (v: string | undefined) => {
  const n = Number((v ?? '').trim());
  return (v ?? '').trim() !== '' && Number.isInteger(n) && n >= 0 ? n : 0;
};
const germanDay = (v: string | undefined) => {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec((v ?? '').trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
};

/** Sections summed per rule group and per zone (joined by the zone name the section carries). */
export function summariseOnStreet(segmentRows: Row[], zoneRows: Row[]): OnStreetParkingRecord {
  const groups = new Map<string, { segments: number; spaces: number }>();
  const perZone = new Map<string, { segments: number; spaces: number }>();
  const outside = { segments: 0, spaces: 0 };
  let total = 0;
  for (const r of segmentRows) {
    const n = spaces(r.angebot);
    total += n;
    const g = clean(r.parkregel_gruppe) ?? 'ohne Angabe';
    const gs = groups.get(g) ?? { segments: 0, spaces: 0 };
    groups.set(g, { segments: gs.segments + 1, spaces: gs.spaces + n });
    const zone = clean(r.prm_name);
    const target = zone ? (perZone.get(zone) ?? { segments: 0, spaces: 0 }) : outside;
    target.segments++;
    target.spaces += n;
    if (zone) perZone.set(zone, target);
  }
  const zones = zoneRows
    .map((z) => ({ z, name: clean(z.name) }))
    .filter((x): x is { z: Row; name: string } => x.name !== null)
    .map(({ z, name }) => ({
      name,
      status: clean(z.status),
      measure: clean(z.massnahme),
      enforcement: clean(z.ueberwachung),
      opened_on: germanDay(z.eroeffnung),
      link: clean(z.einzeluebersicht_link),
      ...(perZone.get(name) ?? { segments: 0, spaces: 0 }),
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'de'));
  return {
    segments: segmentRows.length,
    spaces: total,
    by_rule_group: [...groups].map(([group, s]) => ({ group, ...s })).sort((a, b) => b.spaces - a.spaces || a.group.localeCompare(b.group, 'de')),
    zones,
    outside_zones: outside,
  };
}

async function layerCsv(http: SourceHttp, typeName: string, propertyName: string, signal: AbortSignal) {
  return http.text('', { signal, query: { service: 'WFS', version: '1.0.0', request: 'GetFeature', typeName, outputFormat: 'csv', propertyName } });
}

/** `parking-onstreet`: München's kerbside sections and parking management zones (two layer reads, attributes only). */
export const muenchenOnStreet: Adapter<OnStreetParkingRecord> = async ({ http, signal }) => {
  const segments = parseWfsCsv(
    await layerCsv(http, SEGMENT_LAYER, SEGMENT_FIELDS, signal),
    ['angebot', 'parkregel_gruppe', 'prm_name'],
    'München kerbside section layer',
  );
  if (segments.length === 0) return { data: null, status: 'no_data', meta: { reason: 'the kerbside section layer lists no section' } };
  const zones = parseWfsCsv(await layerCsv(http, ZONE_LAYER, ZONE_FIELDS, signal), ['name'], 'München parking zone layer');
  return { data: summariseOnStreet(segments, zones), meta: { zones: zones.length } };
};
