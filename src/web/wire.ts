/**
 * The JSON the server embeds in a page or an MCP App view for the browser code to read: one
 * definition for both sides. The server imports these types only (`import type`, erased), so
 * browser code still imports nothing of the server (.dependency-cruiser.cjs); this file imports nothing.
 */

/** A request-builder parameter of a data type (its OpenAPI parameter, as the page shows it). */
export interface ExplorerParam {
  name: string;
  type: string;
  required: boolean;
  in: string;
  description: string;
  enum?: readonly string[];
  default?: string | number;
  example?: string | number;
}

/** What the explorer page of one city shows (services/explorer.ts builds it from the catalog and the cache). */
export interface ExplorerModel {
  city: { slug: string; name: string; lat: number; lon: number };
  boundary: { path: string; state: string; reason?: string };
  layers: { type: string; label: string; path: string; state: 'idle' | 'not_covered' | 'disabled'; reason?: string; cached: boolean }[];
  values: {
    type: string;
    label: string;
    path: string;
    mode: 'live' | 'polled';
    ok: boolean;
    /** Seconds between refetches of a polled type (its fresh window). */
    refresh: number;
    list: boolean | string;
    fields: { path: string; unit: string }[];
  }[];
  history: { type: string; label: string; path: string; fields: { name: string; unit: string }[] }[];
  builder: { type: string; label: string; template: string; path: string; tool: string; formats: readonly string[]; params: ExplorerParam[] }[];
  tiles: { url: string; attribution: string } | null;
}

/** How a view draws the items of a data type with positions as its GeoJSON form does. */
export interface MapFacts {
  label: string;
  /** The record member holding the list, or null when data is the list. */
  listKey: string | null;
  /** The object path holding lat/lon ([] for the item itself), or null. */
  position: readonly string[] | null;
  /** The member holding a GeoJSON geometry, or null. */
  geometry: string | null;
  /** `limit: "all"` asks for every item (false: the type has a `limit` parameter of its own). */
  pages: boolean;
}

/** What an MCP App view's document carries (mcp/app-html.ts). */
export interface ViewFacts {
  view: 'overview' | 'history' | 'map';
  version: string;
  /** Data types whose items have a position, by type. */
  map: Record<string, MapFacts>;
}
