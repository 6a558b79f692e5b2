import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Catalog } from '../catalog/index.ts';
import { GROUP_TOOLS, type DataType } from '../core/data-type.ts';
import { formatsOf, shapeOf } from '../core/formats.ts';
import type { MapFacts, ViewFacts } from '../web/wire.ts';

/**
 * MCP Apps (SEP-1865): a tool names an interactive UI resource (`_meta.ui.resourceUri`, a
 * `ui://` URI) that a host supporting the extension renders beside the tool's result, handing the
 * view that result. Which tool gets which view is derived here from the catalog; the views are
 * built in app-html.ts. Hosts without the extension ignore `_meta` and see the result unchanged.
 */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

export const APP_VIEWS = ['overview', 'history', 'map'] as const;
export type AppView = (typeof APP_VIEWS)[number];

export const APP_VIEW_INFO: Record<AppView, { title: string; description: string }> = {
  overview: {
    title: 'City overview view',
    description: "A city's current weather and air values and its data types; a data type with positions opens on a map.",
  },
  history: {
    title: 'History chart view',
    description: 'One chart per recorded field with its unit and a data table; range buttons ask the history tool again.',
  },
  map: {
    title: 'Map view',
    description: "A list answer's items with a position on a map, their count in the legend and their fields on selection; other answers as values.",
  },
};

export function appUri(view: AppView): string {
  return `ui://stadtdaten/${view}.html`;
}

/** A data type whose answer is a list of items with a position: it has a GeoJSON form (core/formats.ts). */
export function mapped(dt: DataType): boolean {
  return formatsOf(dt).includes('geojson');
}

/**
 * The view of a tool: the overview and history tools have their own; a topic group's tool whose
 * types include one with positions gets the map (its other types show as values there).
 */
export function viewOfTool(name: string, types: readonly DataType[]): AppView | null {
  if (name === 'city_overview') return 'overview';
  if (name === 'history') return 'history';
  if ((Object.values(GROUP_TOOLS) as string[]).includes(name) && types.some(mapped)) return 'map';
  return null;
}

/**
 * A tool's `_meta` naming its view: the nested key of the current spec and the flat key hosts of
 * the first drafts read (the pair the extension's own registerAppTool writes).
 */
export function toolUiMeta(view: AppView): Record<string, unknown> {
  const uri = appUri(view);
  return { ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri };
}

/** The facts of every data type with positions, by type: embedded in the views once per process. */
export type { MapFacts, ViewFacts };

export function mapFacts(catalog: Catalog): Record<string, MapFacts> {
  const out: Record<string, MapFacts> = {};
  for (const dt of catalog.all) {
    if (!mapped(dt)) continue;
    const { listKey, table } = shapeOf(dt);
    const pages = !dt.params?.some((p) => p.name === 'limit');
    out[dt.type] = { label: dt.label_en, listKey, position: table.position, geometry: table.geometry, pages };
  }
  return out;
}
