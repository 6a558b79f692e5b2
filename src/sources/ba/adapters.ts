import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { SourceHttp } from '../../core/adapter-http.ts';
import type { UnemploymentRecord } from '../../core/records/society.ts';
import { parseEckwerte, parseKreisList, type BaKreis } from './eckwerte.ts';

const DAY = 86400;

export const KREIS_ONLY = (name: string) =>
  `${name} belongs to a Kreis; the BA publishes municipal figures only to certificate holders, and the Kreis value is not the city's`;

/** The BA's name of the city's own Kreis (kreisfreie Städte only), from the cached region list. */
export async function baKreisOf({ city, http, cached }: FetchContext): Promise<BaKreis | null> {
  const kreise = await cached<BaKreis[]>('kreise', { freshSeconds: 7 * DAY, staleSeconds: 60 * DAY }, async () =>
    parseKreisList(await http.text('', { base: http.url('kreise') })),
  );
  return kreise.find((k) => k.key === city.ags.slice(0, 5)) ?? null;
}

/** One table of a Kreis by the BA's name for it; null when the BA answers 404 (no such table for that name). */
export async function baKreisTable(http: SourceHttp, table: string, kreis: BaKreis): Promise<string | null> {
  const res = await http.request(`/ct/v1/tableFetch/csv/${table}`, { query: { Kreis: kreis.name }, okStatuses: [404] });
  return res.status === 404 ? null : res.body.toString('utf8');
}

export const NO_TABLE = (table: string, kreis: BaKreis) => `the BA answers no ${table} table for Kreis "${kreis.name}"`;

/** Eckwerte table of the city's Kreis (kreisfreie Städte only), found in the cached Kreis list. */
export const unemploymentFigures: Adapter<UnemploymentRecord> = async (ctx) => {
  const { city, http } = ctx;
  if (!city.district_free) return { data: null, status: 'no_data', meta: { reason: KREIS_ONLY(city.name) } };
  const kreis = await baKreisOf(ctx);
  if (!kreis) return { data: null, status: 'no_data', meta: { reason: `the BA region list has no Kreis ${city.ags.slice(0, 5)}` } };
  const csv = await baKreisTable(http, 'EckwerteTabelleALOKr', kreis);
  if (csv === null) return { data: null, status: 'no_data', meta: { reason: NO_TABLE('EckwerteTabelleALOKr', kreis) } };
  const parsed = parseEckwerte(csv);
  return { data: { kreis_key: kreis.key, ...parsed, region_name: parsed.region_name ?? kreis.name } };
};
