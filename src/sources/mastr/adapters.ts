import type { Adapter } from '../../core/data-type.ts';
import type { EnergyRecord } from '../../core/records/generation.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import { parsePage, summarise, type MastrPage, type MastrUnit } from './units.ts';

/** Units per request: the largest page size public clients report as reliable. */
export const PAGE_SIZE = 5000;
/** Pages read at most (Berlin has the most units of the 84 cities, well below this). */
export const MAX_PAGES = 60;

/** Every unit the register lists for the municipality, paged, summed up by energy carrier. */
export const installedGeneration: Adapter<EnergyRecord> = async ({ city, http }) => {
  const units: MastrUnit[] = [];
  let total = 0;
  let read = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const body = await http.json<MastrPage>('/Einheit/EinheitJson/GetErweiterteOeffentlicheEinheitStromerzeugung', {
      query: { sort: '', page, pageSize: PAGE_SIZE, filter: `Gemeindeschlüssel~eq~'${city.ags}'` },
    });
    const p = parsePage(body);
    // A filter the register did not apply would return all of Germany: never count that for the city.
    if (page === 1 && p.units.length > 0 && !p.units.some((u) => u.Gemeindeschluessel === city.ags)) {
      throw new UpstreamError('parse', `MaStR answered units of other municipalities to the filter on ${city.ags}`);
    }
    total = p.total;
    read += p.units.length;
    units.push(...p.units.filter((u) => u.Gemeindeschluessel === city.ags));
    if (p.units.length === 0 || read >= total) break;
  }
  const meta: Record<string, unknown> = { units_total: total };
  if (read < total) meta.truncated = `read ${read} of ${total} units (at most ${MAX_PAGES} pages of ${PAGE_SIZE})`;
  const data = summarise(city.ags, units);
  if (data.units_in_operation === 0)
    return { data: null, status: 'no_data', meta: { ...meta, reason: 'the register lists no unit in operation for this municipality' } };
  return { data, meta };
};
