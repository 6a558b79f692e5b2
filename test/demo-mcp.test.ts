import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const BIN = fileURLToPath(new URL('../bin/stadtdaten-mcp.js', import.meta.url));

test('stadtdaten-mcp --demo: an MCP stdio server on the demo fixtures, answers labelled demo', { timeout: 120_000 }, async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--demo'],
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent' },
    stderr: 'pipe',
  });
  const errors: Error[] = [];
  transport.onerror = (err) => errors.push(err);
  const client = new Client({ name: 'stadtdaten-demo-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const res = await client.callTool({ name: 'city_overview', arguments: { city: 'koeln' } });
    assert.notEqual(res.isError, true);
    const meta = (res.structuredContent as { meta?: { demo?: boolean } } | undefined)?.meta;
    assert.equal(meta?.demo, true);
    assert.deepEqual(errors, [], 'stdout carried only protocol messages');
  } finally {
    await client.close();
  }
});
