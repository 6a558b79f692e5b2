#!/usr/bin/env node
// `npx stadtdaten-mcp` (or the path to this file in an MCP client's config): the compiled MCP
// stdio entry, built on first use. The default SQLite file is resolved from this repository, so
// any working directory works (MCP clients often start servers from / or their own folder).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt, requireNode } from '../scripts/start.js';

requireNode();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (process.argv.includes('--demo')) {
  // `stadtdaten-mcp --demo`: the demo (fixtures on a local fake upstream, no internet) over stdio.
  // It needs the test fixtures, so it runs from the TypeScript sources (Node strips their types) instead of dist/.
  const child = spawn(process.execPath, [join(root, 'scripts', 'demo.ts'), '--mcp'], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
} else {
  await serve();
}

async function serve() {
  if (!process.env.STORE_PATH) process.env.STORE_PATH = join(root, 'data', 'stadtdaten.sqlite');
  ensureBuilt();
  await import(pathToFileURL(join(root, 'dist', 'src', 'stdio.js')).href);
}
