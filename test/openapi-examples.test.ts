import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EXAMPLES_CLOCK, EXAMPLES_FILE, buildExamples } from '../scripts/openapi-examples-build.ts';

/**
 * The example answers the OpenAPI document links (/docs/examples/<type>.json) are the service's
 * own: made again here as `npm run openapi-examples` makes them (the clock stood still), they equal
 * the committed file. An adapter, fixture or record change that alters an answer shows here until
 * the examples are written again, not as a stale example on /docs.
 */
test('OpenAPI examples: the committed file is what the service answers on the fixtures today', async () => {
  mock.timers.enable({ apis: ['Date'], now: EXAMPLES_CLOCK });
  let built: Awaited<ReturnType<typeof buildExamples>>;
  try {
    built = await buildExamples();
  } finally {
    mock.timers.reset();
  }
  assert.deepEqual(built.failed, [], 'every example request answers 200 ok');
  const committed = readFileSync(EXAMPLES_FILE, 'utf8').split('\n');
  const fresh = built.text.split('\n');
  const stale = fresh.filter((line, i) => line !== committed[i]).map((line) => line.slice(0, line.indexOf(':')));
  assert.deepEqual(stale, [], 'these examples differ from what the service answers: run npm run openapi-examples');
  assert.equal(committed.length, fresh.length, 'as many examples as data types: run npm run openapi-examples');
});
