import type { SolarRoofsRecord } from '../../core/records/solar.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

interface Category {
  anzahl?: string | number | null;
  bruttoleistung_mw?: number | string | null;
  strom_ertrag_gwh?: number | string | null;
  quelle?: string | null;
  stand?: number | string | null;
}

/** {year}/{year}.json: `in_betrieb[]` per municipality (AGS), categories of installation. */
export interface InBetriebBody {
  in_betrieb?: ({ verwaltungseinheit?: string; ags?: string } & Partial<Record<'freiflaeche' | 'dach' | 'stecker' | 'gebaeude' | 'gesamt', Category>>)[];
}

/** `anzahl` is a string in some rows and a number in others. */
const num = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const round = (v: number | null, d: number) => (v === null ? null : Math.round(v * 10 ** d) / 10 ** d);

/** `stand` is an integer YYYYMMDD. */
function standDate(v: unknown): string | null {
  const s = String(v ?? '');
  return /^\d{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : null;
}

function category(c: Category | undefined): SolarRoofsRecord['rooftop'] {
  if (!c || typeof c !== 'object') return null;
  const n = num(c.anzahl);
  return {
    installations: n !== null && Number.isInteger(n) ? n : null,
    capacity_mw: round(num(c.bruttoleistung_mw), 4),
    yield_gwh: round(num(c.strom_ertrag_gwh), 4),
  };
}

/** Every municipality of one year's file, keyed by AGS. */
export function parseInBetrieb(body: InBetriebBody, year: number): Map<string, SolarRoofsRecord> {
  if (!body || typeof body !== 'object' || !Array.isArray(body.in_betrieb)) throw new UpstreamError('parse', 'Energieatlas NRW file without in_betrieb');
  const out = new Map<string, SolarRoofsRecord>();
  for (const row of body.in_betrieb) {
    if (!row || typeof row.ags !== 'string' || !/^\d{8}$/.test(row.ags)) continue;
    const any = row.gesamt ?? row.dach ?? row.gebaeude;
    out.set(row.ags, {
      ags: row.ags,
      municipality: row.verwaltungseinheit ?? null,
      year,
      stand: standDate(any?.stand),
      data_basis: typeof any?.quelle === 'string' ? any.quelle : null,
      rooftop: category(row.dach),
      buildings: category(row.gebaeude),
      plug_in: category(row.stecker),
      ground_mounted: category(row.freiflaeche),
      total: category(row.gesamt),
    });
  }
  return out;
}
