import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildApp } from './app.ts';
import { loadConfigOrExit } from './startup.ts';
import { startJobs } from './jobs/index.ts';
import { createMcpServer } from './mcp/mcp-server.ts';

/**
 * MCP over stdio (`npm run mcp`, `node bin/stadtdaten-mcp.js`): the same app in-process, no listener.
 * stdout carries only protocol messages, so logs go to stderr.
 */
async function main() {
  const config = loadConfigOrExit('stadtdaten-mcp');
  const built = await buildApp(config, { logStream: process.stderr });
  // Live data types read what the pollers store; a standalone stdio server runs them itself.
  const jobs = config.jobs ? startJobs(built.rt, [...built.rt.catalog.jobsFor(built.rt), ...built.historyJobs]) : null;
  const server = createMcpServer(built);

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await jobs?.stop();
    await server.close();
    await built.close();
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(new StdioServerTransport());
}

main().catch((err) => {
  console.error('stadtdaten-mcp: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
