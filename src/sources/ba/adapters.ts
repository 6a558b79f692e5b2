import type { Adapter, FetchContext } from '../../core/data-type.ts';
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

/** Eckwerte table of the city's Kreis (kreisfreie Städte only), found in the cached Kreis list. */
export const unemploymentFigures: Adapter<UnemploymentRecord> = async (ctx) => {
  const { city, http } = ctx;
  if (!city.district_free) return { data: null, status: 'no_data', meta: { reason: KREIS_ONLY(city.name) } };
  const kreis = await baKreisOf(ctx);
  if (!kreis) return { data: null, status: 'no_data', meta: { reason: `the BA region list has no Kreis ${city.ags.slice(0, 5)}` } };
  const csv = await http.text('/ct/v1/tableFetch/csv/EckwerteTabelleALOKr', { query: { Kreis: kreis.name } });
  const parsed = parseEckwerte(csv);
  return { data: { kreis_key: kreis.key, ...parsed, region_name: parsed.region_name ?? kreis.name } };
};
