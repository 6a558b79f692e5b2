#!/usr/bin/env node
// `npx stadtdaten-mcp`: runs the TypeScript stdio entry through tsx. The tsx loader and the
// default SQLite file are resolved from this repository, so any working directory works
// (MCP clients often start servers from / or their own folder).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env };
if (!env.STORE_PATH) env.STORE_PATH = join(root, 'data', 'stadtdaten.sqlite');

const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'src', 'mcp', 'stdio.ts'), ...process.argv.slice(2)], {
  env,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
