import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProblemError } from '../src/core/problem.ts';
import { UpstreamError } from '../src/core/upstream-error.ts';
import { FormatDriftError } from '../src/core/format-drift-error.ts';
import { BudgetExceededError } from '../src/pipeline/cache.ts';
import { Inflate64Error } from '../src/upstream/inflate64.ts';
import { loadConfig } from '../src/core/config.ts';

test('every error class says its name (logs and stack traces tell them apart) and keeps a cause it is given', () => {
  const cause = new SyntaxError('Unexpected token');
  const cases: [Error, string][] = [
    [new ProblemError('invalid_parameter', 'detail', 'hint', {}, { cause }), 'ProblemError'],
    [new UpstreamError('parse', 'not JSON', undefined, undefined, { cause }), 'UpstreamError'],
    [new FormatDriftError('drift', 'items[0].lat'), 'FormatDriftError'],
    [new BudgetExceededError(100), 'BudgetExceededError'],
    [new Inflate64Error('bad block'), 'Inflate64Error'],
  ];
  for (const [err, name] of cases) {
    assert.equal(err.name, name);
    assert.match(String(err), new RegExp(`^${name}: `));
  }
  assert.equal(cases[0]![0].cause, cause);
  assert.equal(cases[1]![0].cause, cause);
  assert.throws(() => loadConfig({ PORT: 'eighty' }, []), { name: 'ConfigError' });
});
