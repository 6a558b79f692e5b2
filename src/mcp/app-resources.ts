import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Catalog } from '../catalog/index.ts';
import { appHtml } from './app-html.ts';
import { APP_MIME_TYPE, APP_VIEW_INFO, APP_VIEWS, appUri } from './apps.ts';

/**
 * The views' `_meta.ui`: a border from the host (the views draw none of their own). No `csp`: a
 * view loads nothing from anywhere (everything is inlined), so the host's default policy, which
 * allows no network, is the right one.
 */
const UI_META = { ui: { prefersBorder: true } };

/** The ui:// resources (resources/list and resources/read), one per view. */
export function registerAppResources(server: McpServer, catalog: Catalog): void {
  for (const view of APP_VIEWS) {
    const uri = appUri(view);
    const { title, description } = APP_VIEW_INFO[view];
    server.registerResource(`view-${view}`, uri, { title, description, mimeType: APP_MIME_TYPE, _meta: UI_META }, async () => ({
      contents: [{ uri, mimeType: APP_MIME_TYPE, text: await appHtml(catalog, view), _meta: UI_META }],
    }));
  }
}
