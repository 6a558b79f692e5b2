/**
 * The MCP client settings the landing page and the README show, from one place. `http` is the
 * transport type name current clients (Claude Code's `.mcp.json`, VS Code's `mcp.json`) take for
 * Streamable HTTP; `streamable-http` is not one of them. A stdio entry needs no type.
 */
export const MCP_HTTP_TRANSPORT_TYPE = 'http';

export interface McpClientConfigs {
  stdio: { mcpServers: { stadtdaten: { command: string; args: string[] } } };
  http: { mcpServers: { stadtdaten: { type: string; url: string } } };
}

/** `origin` serves `/mcp`; `repo` is where the client finds this repository's checkout. */
export function mcpClientConfigs(origin: string, repo: string): McpClientConfigs {
  return {
    stdio: { mcpServers: { stadtdaten: { command: 'node', args: [`${repo}/bin/stadtdaten-mcp.js`] } } },
    http: { mcpServers: { stadtdaten: { type: MCP_HTTP_TRANSPORT_TYPE, url: `${origin}/mcp` } } },
  };
}
