import { decodeText, delimitedRows } from '../../core/delimited.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { parseNumber } from '../../core/numbers.ts';

/** One Ladeeinrichtung (station) of the register, in the Stadtdaten vocabulary. */
export interface ChargingStation {
  id: string;
  operator: string | null;
  name: string | null;
  status: string | null;
  charging_type: 'normal' | 'fast' | null;
  charging_points: number | null;
  power_kw: number | null;
  commissioning_date: string | null;
  street: string | null;
  house_number: string | null;
  address_supplement: string | null;
  post_code: string | null;
  place: string | null;
  district: string | null;
  state: string | null;
  lat: number | null;
  lon: number | null;
  connector_types: string[];
  connectors: { types: string[]; power_kw: number[]; evse_id: string | null }[];
}

/** The edition carries UTF-8 with BOM now, cp1252 in older editions: detect instead of assuming. */
export const decodeRegister = decodeText;

/** "7,2" -> 7.2 (decimal comma; coordinates are text). */
const decimal = (s: string | undefined) => parseNumber(s, { notation: 'decimal' });

/** "11.01.2020" -> "2020-01-11" (a date, no time, so no zone). */
function isoDate(s: string | undefined): string | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec((s ?? '').trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

const text = (s: string | undefined): string | null => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};
const list = (s: string | undefined): string[] =>
  (s ?? '')
    .split(';')
    .map((x) => x.trim())
    .filter(Boolean);

/** "Letzte Aktualisierung vom: 01.09.2026" (older editions: "Stand: 01.12.2021"). */
function editionDate(preamble: string): string | null {
  const m = /(?:Aktualisierung vom|Stand):?\s*(\d{2}\.\d{2}\.\d{4})/.exec(preamble);
  return m ? isoDate(m[1]) : null;
}

/**
 * The register CSV: ~10 notice/banner lines, then the header row starting with
 * `Ladeeinrichtungs-ID`; `;`-separated with quoted `;`-lists inside fields, decimal commas,
 * DD.MM.YYYY dates and up to six connector blocks (Steckertypen/Nennleistung Stecker/EVSE-ID).
 */
export function parseRegister(csv: string): { edition: string | null; stations: ChargingStation[] } {
  const start = csv.search(/^\uFEFF?Ladeeinrichtungs-ID;/m);
  if (start < 0) throw new UpstreamError('parse', 'Ladesäulenregister without the Ladeeinrichtungs-ID header row');
  const records = delimitedRows(csv.slice(start), { label: 'Ladesäulenregister CSV', trim: false });
  const header = (records[0] ?? []).map((h) => h.trim());
  const idx = (name: string) => header.indexOf(name);
  const need = ['Ladeeinrichtungs-ID', 'Betreiber', 'Postleitzahl', 'Ort', 'Breitengrad', 'Längengrad'];
  const missing = need.filter((n) => idx(n) < 0);
  if (missing.length) throw new UpstreamError('parse', `Ladesäulenregister header lacks ${missing.join(', ')}`);
  const c = new Map(header.map((h, i) => [h, i]));
  /** The row's field under `name`; undefined when the row is short or this edition lacks the column. */
  const at = (r: string[], name: string): string | undefined => {
    const i = c.get(name);
    return i === undefined ? undefined : r[i];
  };
  const stations: ChargingStation[] = [];
  for (const r of records.slice(1)) {
    const id = text(at(r, 'Ladeeinrichtungs-ID'));
    if (!id) continue;
    const connectors = [1, 2, 3, 4, 5, 6]
      .map((n) => ({
        types: list(at(r, `Steckertypen${n}`)),
        power_kw: list(at(r, `Nennleistung Stecker${n}`))
          .map(decimal)
          .filter((x): x is number => x !== null),
        evse_id: text(at(r, `EVSE-ID${n}`)),
      }))
      .filter((k) => k.types.length || k.power_kw.length || k.evse_id);
    const art = text(at(r, 'Art der Ladeeinrichtung') ?? at(r, 'Art der Ladeeinrichung'));
    stations.push({
      id,
      operator: text(at(r, 'Betreiber')),
      name: text(at(r, 'Anzeigename (Karte)')),
      status: text(at(r, 'Status')),
      charging_type: art === null ? null : /schnell/i.test(art) ? 'fast' : 'normal',
      charging_points: decimal(at(r, 'Anzahl Ladepunkte')),
      power_kw: decimal(at(r, 'Nennleistung Ladeeinrichtung [kW]')),
      commissioning_date: isoDate(at(r, 'Inbetriebnahmedatum')),
      street: text(at(r, 'Straße')),
      house_number: text(at(r, 'Hausnummer')),
      address_supplement: text(at(r, 'Adresszusatz')),
      post_code: text(at(r, 'Postleitzahl')),
      place: text(at(r, 'Ort')),
      district: text(at(r, 'Kreis/kreisfreie Stadt')),
      state: text(at(r, 'Bundesland')),
      lat: decimal(at(r, 'Breitengrad')),
      lon: decimal(at(r, 'Längengrad')),
      connector_types: [...new Set(connectors.flatMap((k) => k.types))],
      connectors,
    });
  }
  return { edition: editionDate(csv.slice(0, start)), stations };
}
