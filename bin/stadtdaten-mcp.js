#!/usr/bin/env node
// `npx stadtdaten-mcp` (or the path to this file in an MCP client's config): the compiled MCP
// stdio entry, built on first use. The default SQLite file is resolved from this repository, so
// any working directory works (MCP clients often start servers from / or their own folder).
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../scripts/start.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!process.env.STORE_PATH) process.env.STORE_PATH = join(root, 'data', 'stadtdaten.sqlite');
ensureBuilt();
await import(pathToFileURL(join(root, 'dist', 'src', 'stdio.js')).href);
