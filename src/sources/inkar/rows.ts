import type { City } from '../../cities/register.ts';
import type { SustainabilityRecord } from '../../core/records/sustainability.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { eachRowOfZipMember } from '../../upstream/zip-archive.ts';
import { INKAR_AREA, type InkarIndicator } from './indicators.ts';
import { parseNumber } from '../../core/numbers.ts';

/** Columns the long-format CSV must have (found by name: the order is not relied on). */
const REQUIRED = ['Kuerzel', 'Raumbezug', 'Kennziffer', 'Zeitbezug', 'Wert'] as const;
/** INKAR's names of the two spatial levels that can stand for one of the register's cities. */
const MUNICIPALITIES = 'Gemeinden';
const DISTRICTS = 'Kreise';

type Level = 'municipality' | 'district';
interface Latest {
  year: number;
  value: number;
  label: string | null;
  name: string | null;
}

/** The year of a `Zeitbezug` (a year, or a period whose last year is taken). */
function yearOf(raw: string): number | null {
  const m = /(\d{4})\s*$/.exec(raw.trim());
  return m ? Number(m[1]) : null;
}

/**
 * Reads the rows of INKAR's CSV and keeps, per city and declared indicator, the newest year with
 * a value: the Gemeinde row of the city's AGS, or for a kreisfreie city its Kreis row (the same
 * territory). A kreisangehörige city never takes its district's value.
 */
export class InkarReader {
  rows = 0;
  matched = 0;
  private cols: Record<string, number> | null = null;
  private readonly byAgs = new Map<string, City>();
  private readonly byDistrict = new Map<string, City>();
  private readonly latest = new Map<string, Latest>();

  private readonly cities: readonly City[];
  private readonly indicators: ReadonlyMap<string, InkarIndicator>;
  constructor(cities: readonly City[], indicators: ReadonlyMap<string, InkarIndicator>) {
    this.cities = cities;
    this.indicators = indicators;
    for (const c of cities) {
      this.byAgs.set(c.ags, c);
      if (c.district_free) this.byDistrict.set(c.ags.slice(0, 5), c);
    }
  }

  row(fields: string[]): void {
    if (!this.cols) {
      const cols: Record<string, number> = {};
      fields.forEach((f, i) => (cols[f.trim()] = i));
      const missing = REQUIRED.filter((c) => cols[c] === undefined);
      if (missing.length > 0) throw new UpstreamError('parse', `INKAR CSV: header row without ${missing.join(', ')}`);
      this.cols = cols;
      return;
    }
    this.rows++;
    const c = this.cols;
    const at = (name: string) => (c[name] === undefined ? undefined : fields[c[name]]);
    const id = at('Kuerzel') ?? '';
    if (!this.indicators.has(id)) return;
    const area = at('Bereich');
    if (area !== undefined && area !== INKAR_AREA) return;
    const city = this.cityOf(at('Raumbezug') ?? '', (at('Kennziffer') ?? '').trim());
    if (!city) return;
    const year = yearOf(at('Zeitbezug') ?? '');
    const value = parseNumber(at('Wert'), { notation: 'de-or-dot' });
    if (year === null || value === null) return;
    this.matched++;
    const key = `${city.city.slug}|${city.level}|${id}`;
    const prev = this.latest.get(key);
    if (prev && prev.year >= year) return;
    this.latest.set(key, { year, value, label: at('Indikator')?.trim() || null, name: at('Name')?.trim() || null });
  }

  private cityOf(level: string, code: string): { city: City; level: Level } | null {
    if (!/^\d{1,8}$/.test(code)) return null;
    if (level === MUNICIPALITIES) {
      const city = this.byAgs.get(code.padStart(8, '0'));
      return city ? { city, level: 'municipality' } : null;
    }
    if (level === DISTRICTS) {
      // Kreise are five digits; an eight-digit key ending in 000 names the same Kreis.
      const kreis = code.length <= 5 ? code.padStart(5, '0') : code.length === 8 && code.endsWith('000') ? code.slice(0, 5) : null;
      const city = kreis ? this.byDistrict.get(kreis) : undefined;
      return city ? { city, level: 'district' } : null;
    }
    return null;
  }

  /** One record per city with at least one value; the header must have been seen. */
  finish(dataSource: string): Map<string, SustainabilityRecord> {
    if (!this.cols) throw new UpstreamError('parse', 'INKAR CSV: no header row');
    const out = new Map<string, SustainabilityRecord>();
    for (const city of this.cities) {
      let name: string | null = null;
      const indicators: SustainabilityRecord['indicators'] = [];
      for (const ind of this.indicators.values()) {
        // The Gemeinde row first; the Kreis row exists in the map only for kreisfreie cities.
        const own = this.latest.get(`${city.slug}|municipality|${ind.id}`);
        const hit = own ?? this.latest.get(`${city.slug}|district|${ind.id}`);
        if (!hit) continue;
        name ??= hit.name;
        indicators.push({
          id: ind.id,
          label: hit.label ?? ind.label,
          unit: ind.unit,
          value: hit.value,
          year: hit.year,
          sdg_goal: ind.sdg,
          level: own ? 'Gemeinde' : 'Kreis (kreisfreie Stadt)',
        });
      }
      if (indicators.length > 0) out.set(city.slug, { region: { name, ags: city.ags, ars: city.ars }, data_source: dataSource, indicators });
    }
    return out;
  }
}

/** The long-format table inside the edition's ZIP. */
const MEMBER = /(^|\/)inkar_\d{4}\.csv$/i;

/** Streams the rows of an INKAR edition's CSV out of its ZIP held in memory into `onRow`; resolves with the member's path. */
export function eachInkarRowInZip(body: Buffer, maxBytes: number, onRow: (fields: string[]) => void): Promise<string> {
  // Fields are not trimmed: the reader trims the ones it compares, and 60 million rows are read faster without.
  return eachRowOfZipMember(body, { member: MEMBER, label: 'INKAR archive', missing: 'no inkar_YYYY.csv member', maxBytes, trim: false }, onRow);
}
