/**
 * What the server embeds in a view's document (src/mcp/apps.ts ViewFacts, as JSON): typed here
 * as far as the view reads it, since browser code imports nothing of the server.
 */
export interface MapFacts {
  label: string;
  listKey: string | null;
  position: readonly string[] | null;
  geometry: string | null;
  pages: boolean;
}

export interface Facts {
  view: 'overview' | 'history' | 'map';
  version: string;
  map: Record<string, MapFacts>;
}
