import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKOUT_DATA, FINGERPRINT_VAR, fingerprint } from '../helpers/checkout-data.ts';

/**
 * Runs last (serial files run one at a time in name order): every test file before it wrote only to stores it
 * created, so the checkout's `data/` (the default STORE_PATH and HISTORY_PATH of `npm start`) is as `npm test`
 * found it, absent when it was absent. Run on its own, without the fingerprint `npm test` takes first, there is
 * nothing to compare with; CI always runs it through `npm test`.
 */
const before = process.env[FINGERPRINT_VAR];
const skip = before === undefined && process.env.CI !== 'true' ? `${FINGERPRINT_VAR} not set: run through npm test, which sets it` : false;

test("the test suite leaves the checkout's data/ as it found it", { skip }, () => {
  assert.ok(before !== undefined, `${FINGERPRINT_VAR} is set by npm test before the first test file`);
  assert.equal(fingerprint(), before, `${CHECKOUT_DATA} changed while the tests ran: a test, bench or script wrote to a store it did not create`);
});
