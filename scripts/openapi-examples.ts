/**
 * `npm run openapi-examples`: writes src/http/openapi-examples.json, the example answer of every
 * data type's OpenAPI operation (scripts/openapi-examples-build.ts), with the clock stood still so
 * that a second run writes the same file. The contract test checks each example against its schema;
 * test/openapi-examples.test.ts that the file is what the service answers today.
 */
import { mock } from 'node:test';
import { writeFileSync } from 'node:fs';
import { EXAMPLES_CLOCK, EXAMPLES_FILE, buildExamples } from './openapi-examples-build.ts';

mock.timers.enable({ apis: ['Date'], now: EXAMPLES_CLOCK });
try {
  const { text, types, failed } = await buildExamples();
  writeFileSync(EXAMPLES_FILE, text);
  console.log(`wrote src/http/openapi-examples.json (${types} data types)`);
  if (failed.length) {
    console.error(`not ok on their example: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  mock.timers.reset();
}
