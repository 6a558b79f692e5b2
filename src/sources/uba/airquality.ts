import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';
import { UbaTime, ubaTimeToIso } from './cet.ts';
import { INDEX_LABELS, INDEX_LABELS_EN, POLLUTANT_BY_ID } from './components.ts';

/** One component of an hour: `[component id, value, component index, share]`. */
const Component = z.tuple([z.number(), z.number().nullable(), z.number().nullable()], z.unknown());
/**
 * airquality/json: `data.{station id}.{start CET} = [end CET, index 0..4, incomplete 0|1, component, ...]`; an
 * unpublished hour comes as `data: {}` or `data: []`.
 */
const AirqualityShape = z.looseObject({
  data: z.preprocess(
    (v) => (Array.isArray(v) && v.length === 0 ? {} : v),
    z.record(z.string(), z.record(UbaTime, z.tuple([UbaTime, z.number().nullable(), z.number()], Component))),
  ),
});

export interface AirqualityHour {
  start: string;
  end: string;
  index: number | null;
  index_label: string | null;
  index_label_en: string | null;
  /** Set by UBA whenever not every index component is present (e.g. traffic stations without O3). */
  incomplete: boolean;
  components: { component: string; component_id: number; value: number | null; unit: string | null; index: number | null }[];
}

/** The newest hour of one station (rows are not guaranteed to be in time order). */
export function latestAirquality(body: unknown, stationId: string): AirqualityHour | null {
  const { data } = shaped(AirqualityShape, body, 'UBA airquality');
  const rows = data[stationId] ?? data[String(Number(stationId))];
  if (!rows) return null;
  const key = Object.keys(rows).reduce<string | null>((a, b) => (a === null || b > a ? b : a), null);
  if (key === null) return null;
  const [end, index, incomplete, ...components] = rows[key]!;
  return {
    start: ubaTimeToIso(key),
    end: ubaTimeToIso(end),
    index,
    index_label: index !== null ? (INDEX_LABELS[index] ?? null) : null,
    index_label_en: index !== null ? (INDEX_LABELS_EN[index] ?? null) : null,
    incomplete: incomplete === 1,
    components: components.map(([id, value, componentIndex]) => {
      const p = POLLUTANT_BY_ID.get(id);
      return { component: p?.code ?? String(id), component_id: id, value, unit: p?.unit ?? null, index: componentIndex };
    }),
  };
}
