import type { City } from '../../cities/register.ts';
import { parseNumber } from '../../core/numbers.ts';
import { eachRowOfZipMember } from '../../upstream/zip-archive.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { AccidentPoint, AccidentsRecord } from '../../core/records/accidents.ts';

export const UTYP1_LABELS: Record<number, string> = {
  1: 'Fahrunfall',
  2: 'Abbiegeunfall',
  3: 'Einbiegen/Kreuzen-Unfall',
  4: 'Überschreiten-Unfall',
  5: 'Unfall durch ruhenden Verkehr',
  6: 'Unfall im Längsverkehr',
  7: 'Sonstiger Unfall',
};

export const UART_LABELS: Record<number, string> = {
  0: 'Unfall anderer Art',
  1: 'Zusammenstoß mit anfahrendem/anhaltendem/ruhendem Fahrzeug',
  2: 'Zusammenstoß mit vorausfahrendem/wartendem Fahrzeug',
  3: 'Zusammenstoß mit seitlich in gleicher Richtung fahrendem Fahrzeug',
  4: 'Zusammenstoß mit entgegenkommendem Fahrzeug',
  5: 'Zusammenstoß mit einbiegendem/kreuzendem Fahrzeug',
  6: 'Zusammenstoß zwischen Fahrzeug und Fußgänger',
  7: 'Aufprall auf Fahrbahnhindernis',
  8: 'Abkommen von Fahrbahn nach rechts',
  9: 'Abkommen von Fahrbahn nach links',
};

/** Involvement flags; the "other" column is IstSonstig in older files and IstSonstige in newer ones. */
const INVOLVED: [keyof AccidentsRecord['involving'], string[]][] = [
  ['bicycle', ['IstRad']],
  ['car', ['IstPKW']],
  ['pedestrian', ['IstFuss']],
  ['motorcycle', ['IstKrad']],
  ['goods_vehicle', ['IstGkfz']],
  ['other', ['IstSonstige', 'IstSonstig']],
];

const REQUIRED = ['ULAND', 'UREGBEZ', 'UKREIS', 'UGEMEINDE', 'UJAHR', 'UKATEGORIE'];

/** Sample points kept per city; the rest is counted in points_total_available. */
export const POINTS_CAP = 500;

interface Tally {
  year: number | null;
  accidents: number;
  category: [number, number, number];
  type: Map<number, number>;
  kind: Map<number, number>;
  involving: Record<keyof AccidentsRecord['involving'], number>;
  points: AccidentPoint[];
  withCoordinates: number;
}

const newTally = (): Tally => ({
  year: null,
  accidents: 0,
  category: [0, 0, 0],
  type: new Map(),
  kind: new Map(),
  involving: { bicycle: 0, car: 0, pedestrian: 0, motorcycle: 0, goods_vehicle: 0, other: 0 },
  points: [],
  withCoordinates: 0,
});

const int = (s: string | undefined): number | null => (s !== undefined && /^\s*\d+\s*$/.test(s) ? Number(s) : null);

/**
 * Reads an Unfallatlas point file row by row. Columns are found by header name because their
 * set and order change between years. Each row's AGS is ULAND + UREGBEZ + UKREIS + UGEMEINDE;
 * Berlin and Hamburg rows carry district keys, so a city state collects every row of its Land.
 */
export class AccidentReader {
  private col: Map<string, number> | null = null;
  private readonly byAgs = new Map<string, string>();
  private readonly byLand = new Map<string, string>();
  readonly tallies = new Map<string, Tally>();
  readonly states = new Set<string>();
  rows = 0;

  constructor(cities: readonly City[]) {
    for (const c of cities) {
      if (c.ags.endsWith('000000')) this.byLand.set(c.ags.slice(0, 2), c.slug);
      else this.byAgs.set(c.ags, c.slug);
    }
  }

  row(cells: string[]) {
    if (!this.col) {
      if (!REQUIRED.every((r) => cells.includes(r))) throw new UpstreamError('parse', 'Unfallatlas file without its header row (ULAND;UREGBEZ;…)');
      this.col = new Map(cells.map((c, i) => [c, i]));
      return;
    }
    const get = (name: string) => cells[this.col!.get(name) ?? -1];
    const land = (get('ULAND') ?? '').padStart(2, '0');
    const ags = land + (get('UREGBEZ') ?? '') + (get('UKREIS') ?? '').padStart(2, '0') + (get('UGEMEINDE') ?? '').padStart(3, '0');
    if (!/^\d{8}$/.test(ags)) return;
    this.rows++;
    this.states.add(land);
    const slug = this.byLand.get(land) ?? this.byAgs.get(ags);
    if (!slug) return;
    let t = this.tallies.get(slug);
    if (!t) this.tallies.set(slug, (t = newTally()));
    t.year ??= int(get('UJAHR'));
    t.accidents++;
    const category = int(get('UKATEGORIE'));
    const slot = category === null ? null : category - 1;
    if (slot === 0 || slot === 1 || slot === 2) t.category[slot]++;
    const type = int(get('UTYP1'));
    if (type !== null) t.type.set(type, (t.type.get(type) ?? 0) + 1);
    const kind = int(get('UART'));
    if (kind !== null) t.kind.set(kind, (t.kind.get(kind) ?? 0) + 1);
    const involved: string[] = [];
    for (const [key, names] of INVOLVED) {
      const name = names.find((n) => this.col!.has(n));
      if (name && get(name) === '1') {
        t.involving[key]++;
        involved.push(key);
      }
    }
    const lon = parseNumber(get('XGCSWGS84'), { notation: 'decimal' });
    const lat = parseNumber(get('YGCSWGS84'), { notation: 'decimal' });
    if (lat === null || lon === null) return;
    t.withCoordinates++;
    if (t.points.length >= POINTS_CAP) return;
    t.points.push({
      lat: Math.round(lat * 1e6) / 1e6,
      lon: Math.round(lon * 1e6) / 1e6,
      category,
      kind,
      type,
      month: int(get('UMONAT')),
      hour: int(get('USTUNDE')),
      weekday: int(get('UWOCHENTAG')),
      light: int(get('ULICHTVERH')),
      involved,
    });
  }

  /** Fails when the file had no header or no row at all (a broken or empty download). */
  finish() {
    if (!this.col) throw new UpstreamError('parse', 'Unfallatlas file is empty');
    if (this.rows === 0) throw new UpstreamError('parse', 'Unfallatlas file has no accident row');
  }
}

const coded = (m: Map<number, number>, labels: Record<number, string>) =>
  [...m].sort((a, b) => a[0] - b[0]).map(([code, accidents]) => ({ code, label: labels[code] ?? null, accidents }));

/** The city's record from its tally. */
export function accidentsRecord(t: Tally, city: City, year: number, file: string): AccidentsRecord {
  return {
    year: t.year ?? year,
    accidents: t.accidents,
    per_100k_inhabitants: city.population ? Math.round((t.accidents / city.population) * 1e6) / 10 : null,
    population: city.population,
    population_date: city.population_date,
    by_category: { killed: t.category[0], seriously_injured: t.category[1], slightly_injured: t.category[2] },
    by_type: coded(t.type, UTYP1_LABELS),
    by_kind: coded(t.kind, UART_LABELS),
    involving: t.involving,
    points: t.points,
    points_total_available: t.withCoordinates,
    source_file: file,
  };
}

export { newTally };

/** The point table inside the ZIP: `csv/Unfallorte2023_LinRef.csv` (2018: `.txt`). */
const MEMBER = /(^|\/)Unfallorte\d{4}_LinRef\.(csv|txt)$/i;

/**
 * Streams the rows of the point table of an Unfallatlas ZIP held in memory into `onRow`; resolves
 * with the member's path. Older files are Windows-1252; only the header holds letters, so a wrong
 * guess cannot shift values.
 */
export function eachPointRowInZip(body: Buffer, maxBytes: number, onRow: (cells: string[]) => void): Promise<string> {
  return eachRowOfZipMember(body, { member: MEMBER, label: 'Unfallatlas archive', missing: 'no Unfallorte…_LinRef member', maxBytes }, onRow);
}
