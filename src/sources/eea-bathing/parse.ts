import { UpstreamError } from '../../core/upstream-error.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

/** The folder listing `BathingWater?f=json`. */
export interface FolderBody {
  services?: { name?: string; type?: string }[];
}

/** `…/MapServer/layers?f=json`. */
export interface LayersBody {
  layers?: { id?: number; name?: string; fields?: { name?: string }[] }[];
}

/** `…/MapServer/{id}/query?f=json`. */
export interface QueryBody {
  features?: { attributes?: Record<string, unknown> }[];
  exceededTransferLimit?: boolean;
  error?: { code?: number; message?: string };
}

export interface SeasonService {
  /** Service path below the folder's parent, e.g. BathingWater/BathingWater_Dyna_WM_2025. */
  name: string;
  season: number | null;
}

/** The newest season's MapServer: the highest year among BathingWater_Dyna_WM_<year>, else the undated one. */
const FolderShape = z.looseObject({ services: z.array(z.looseObject({ name: z.string().nullish(), type: z.string().nullish() })) });

export function newestSeasonService(body: FolderBody): SeasonService {
  const candidates = shaped(FolderShape, body, 'EEA BathingWater folder')
    .services.filter((s) => s.type === 'MapServer' && typeof s.name === 'string' && /BathingWater_Dyna_WM(_\d{4})?$/.test(s.name))
    .map((s) => ({ name: s.name as string, season: /_(\d{4})$/.exec(s.name as string) ? Number(/_(\d{4})$/.exec(s.name as string)![1]) : null }));
  candidates.sort((a, b) => (b.season ?? 0) - (a.season ?? 0));
  const newest = candidates[0];
  if (!newest) throw new UpstreamError('parse', 'EEA BathingWater folder lists no BathingWater_Dyna_WM MapServer');
  return newest;
}

/** The layer that carries the site classification (fields bathingWaterIdentifier and qualityStatus). */
const LayersShape = z.looseObject({
  layers: z.array(z.looseObject({ id: z.number().nullish(), fields: z.array(z.looseObject({ name: z.string().nullish() })).nullish() })),
});

export function classificationLayer(body: LayersBody): number {
  const layer = shaped(LayersShape, body, 'EEA MapServer layers').layers.find((l) => {
    const names = new Set((l.fields ?? []).map((f) => f.name));
    return typeof l.id === 'number' && names.has('bathingWaterIdentifier') && names.has('qualityStatus');
  });
  if (!layer) throw new UpstreamError('parse', 'no EEA layer has bathingWaterIdentifier and qualityStatus');
  return layer.id as number;
}

/**
 * A site's attributes as the layer defines them (esriFieldTypeString/Double): the coordinates place a site, so the
 * keys must be there (a site without a value is left out); the texts may be null.
 */
const QueryShape = z.looseObject({
  features: z.array(
    z.looseObject({
      attributes: z.looseObject({
        bathingWaterIdentifier: z.string().nullish(),
        bathingWaterName: z.string().nullish(),
        bwWaterCategory: z.string().nullish(),
        qualityStatus: z.string().nullish(),
        bwProfileLink: z.string().nullish(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
      }),
    }),
  ),
  exceededTransferLimit: z.boolean().nullish(),
});

export function queryPage(body: QueryBody): { rows: Record<string, unknown>[]; more: boolean } {
  if (body && typeof body === 'object' && body.error)
    throw new UpstreamError('status', `EEA query error ${body.error.code ?? ''}: ${String(body.error.message ?? '').slice(0, 80)}`);
  const page = shaped(QueryShape, body, 'EEA query');
  return { rows: page.features.map((f) => f.attributes), more: page.exceededTransferLimit === true };
}
