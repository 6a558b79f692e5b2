import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VERSION } from '../src/core/version.ts';

/**
 * server.json describes the server in the official MCP registry format (schema 2025-12-11):
 * reverse-DNS name, a description of at most 100 characters, the running version, and the
 * Streamable HTTP endpoint. It lists no package: none is published to a package registry.
 */
const doc = JSON.parse(readFileSync(new URL('../server.json', import.meta.url), 'utf8')) as {
  $schema: string;
  name: string;
  description: string;
  version: string;
  packages?: unknown[];
  remotes: { type: string; url: string; variables?: Record<string, { default?: string }> }[];
};

test('server.json: registry format, current version, the /mcp endpoint, no unpublished package', () => {
  assert.match(doc.$schema, /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/[\d-]+\/server\.schema\.json$/);
  assert.match(doc.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  assert.ok(doc.description.length >= 1 && doc.description.length <= 100, `${doc.description.length} characters`);
  assert.equal(doc.version, VERSION);
  assert.equal(doc.packages, undefined);
  const remote = doc.remotes[0];
  assert.ok(remote);
  assert.equal(remote.type, 'streamable-http');
  const url = remote.url.replace(/\{(\w+)\}/g, (_, k: string) => remote.variables?.[k]?.default ?? '');
  assert.equal(url, 'http://127.0.0.1:3000/mcp');
});
