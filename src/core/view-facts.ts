/**
 * What the server embeds in an MCP Apps view's document (src/mcp/app-html.ts) and the view reads
 * (src/web/mcp-app/): plain types, so the browser code can share them without the server's modules.
 */
export const APP_VIEWS = ['overview', 'history', 'map'] as const;
export type AppView = (typeof APP_VIEWS)[number];

/** What a view needs to know of a data type with positions to draw its items as its GeoJSON form does. */
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

export interface ViewFacts {
  view: AppView;
  version: string;
  /** Data types whose items have a position, by type. */
  map: Record<string, MapFacts>;
}
