import type { Adapter, FetchContext } from '../../core/data-type.ts';
import type { EnergyRecord } from '../../core/records/generation.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { parsePage, summarise, type MastrPage, type MastrUnit } from './units.ts';

/** Units per request: the largest page size public clients report as reliable. */
export const PAGE_SIZE = 5000;
/** Pages read at most (Berlin has the most units of the 84 cities, well below this). */
export const MAX_PAGES = 60;

/** What the register listed for a municipality: its units, and how many it counted in all. */
export interface MunicipalityUnits {
  units: MastrUnit[];
  total: number;
  /** Set when the page cap stopped the reading before `total`. */
  truncated?: string;
}

/**
 * Every unit the register lists with the municipality key, page by page. `andFilter` narrows the
 * register's own filter (e.g. one energy carrier). A register that ignored the filter would answer
 * all of Germany: units of other municipalities are never counted for the city.
 */
export async function readUnits(http: FetchContext['http'], ags: string, andFilter = ''): Promise<MunicipalityUnits> {
  const units: MastrUnit[] = [];
  let total = 0;
  let read = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await http.json<MastrPage>('/Einheit/EinheitJson/GetErweiterteOeffentlicheEinheitStromerzeugung', {
      query: { sort: '', page, pageSize: PAGE_SIZE, filter: `Gemeindeschlüssel~eq~'${ags}'${andFilter}` },
    });
    const p = parsePage(body);
    if (page === 1 && p.units.length > 0 && !p.units.some((u) => u.Gemeindeschluessel === ags)) {
      throw new UpstreamError('parse', `MaStR answered units of other municipalities to the filter on ${ags}`);
    }
    total = p.total;
    read += p.units.length;
    units.push(...p.units.filter((u) => u.Gemeindeschluessel === ags));
    if (p.units.length === 0 || read >= total) break;
  }
  return read < total ? { units, total, truncated: `read ${read} of ${total} units (at most ${MAX_PAGES} pages of ${PAGE_SIZE})` } : { units, total };
}

/** Every unit the register lists for the municipality, paged, summed up by energy carrier. */
export const installedGeneration: Adapter<EnergyRecord> = async ({ city, http }) => {
  const { units, total, truncated } = await readUnits(http, city.ags);
  const meta: Record<string, unknown> = { units_total: total, ...(truncated ? { truncated } : {}) };
  const data = summarise(city.ags, units);
  if (data.units_in_operation === 0)
    return { data: null, status: 'no_data', meta: { ...meta, reason: 'the register lists no unit in operation for this municipality' } };
  return { data, meta };
};
