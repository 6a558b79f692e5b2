import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const root = new URL('../', import.meta.url);

test('an older Node.js ends npm start and the MCP entry with one line naming the required version, no stack trace', () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('./scripts/start.js'); m.requireNode('20.20.2');"], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, /^stadtdaten: Node\.js 24 or newer is required; this is 20\.20\.2\./);
  const ok = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const m = await import('./scripts/start.js'); m.requireNode(process.versions.node); console.log('ok');"],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  assert.equal(ok.stdout.trim(), 'ok', 'this Node passes');
  assert.match(
    spawnSync('grep', ['-c', 'requireNode();', 'bin/stadtdaten-mcp.js', 'scripts/start.js'], { cwd: root, encoding: 'utf8' }).stdout,
    /stadtdaten-mcp\.js:1[\s\S]*start\.js:1/,
  );
});
