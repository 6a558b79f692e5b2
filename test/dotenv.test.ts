import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDotEnv } from '../src/startup.ts';

test('loadDotEnv: reads .env of the given folder; the environment wins over the file; no file is fine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stadtdaten-dotenv-'));
  assert.equal(loadDotEnv(dir), null);
  writeFileSync(join(dir, '.env'), 'STADTDATEN_T_FROM_FILE=file\nSTADTDATEN_T_BOTH=file\n# a comment\nSTADTDATEN_T_QUOTED="a b"\n');
  process.env.STADTDATEN_T_BOTH = 'environment';
  try {
    assert.equal(loadDotEnv(dir), join(dir, '.env'));
    assert.equal(process.env.STADTDATEN_T_FROM_FILE, 'file');
    assert.equal(process.env.STADTDATEN_T_BOTH, 'environment');
    assert.equal(process.env.STADTDATEN_T_QUOTED, 'a b');
  } finally {
    for (const k of ['STADTDATEN_T_FROM_FILE', 'STADTDATEN_T_BOTH', 'STADTDATEN_T_QUOTED']) delete process.env[k];
  }
});
