/**
 * `npm run reliability`: the figures of docs/reliability.md.
 * (a) a seeded fuzzer over every OpenAPI route (RELIABILITY_REQUESTS, default 20,000),
 * (b) every upstream fault class with answers within the request budget and breakers recovering,
 * (c) Redis SIGKILLed and restarted under load (needs redis-server; started on a spare port).
 * Loopback only. Exits non-zero on any violation.
 */
import { hasRedisServer } from '../../test/helpers/redis-server.ts';
import { BUDGET_MS, runFault, runFuzz, runRedisLoss, SLACK_MS } from './scenarios.ts';
import { FAULTS } from './faults.ts';

const REQUESTS = Number(process.env.RELIABILITY_REQUESTS ?? 20_000);
const SEED = Number(process.env.RELIABILITY_SEED ?? 20261125);
const REDIS_MS = Number(process.env.RELIABILITY_REDIS_MS ?? 20_000);

async function main() {
  let failed = false;
  const t0 = Date.now();
  const f = await runFuzz(REQUESTS, SEED);
  console.log(`\n## Fuzzer (seed ${SEED})\n`);
  console.log(
    `${f.requests} requests over ${f.routes} OpenAPI operations in ${((Date.now() - t0) / 1000).toFixed(1)} s; network errors ${f.networkErrors}; slowest ${f.maxMs} ms`,
  );
  console.log(`statuses: ${JSON.stringify(f.byStatus)}`);
  console.log(`violations: ${f.violations.length}`);
  for (const v of f.violations.slice(0, 30)) console.log(`  ${v.what}: ${v.method} ${v.path} -> ${v.status} ${v.detail}`);
  if (f.violations.length) failed = true;

  console.log(`\n## Upstream faults (budget ${BUDGET_MS} ms, slack ${SLACK_MS} ms)\n`);
  console.log('| fault | requests | statuses | slowest (ms) | breakers opened | open after recovery | violations |');
  console.log('|---|---|---|---|---|---|---|');
  for (const name of Object.keys(FAULTS)) {
    const r = await runFault(name, ['berlin', 'hamburg'], ['koeln', 'dortmund']);
    console.log(
      `| ${r.fault} | ${r.requests} | ${Object.entries(r.statuses)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')} | ${r.maxMs} | ${r.openedDuringFault} | ${r.stillOpen.length ? r.stillOpen.join(', ') : 0} | ${r.violations.length} |`,
    );
    for (const v of r.violations.slice(0, 10)) console.log(`    ${v}`);
    if (r.violations.length || r.stillOpen.length) failed = true;
  }

  console.log('\n## Redis killed and restarted under load\n');
  if (!hasRedisServer()) {
    console.log('skipped: no redis-server installed');
  } else {
    const r = await runRedisLoss(REDIS_MS);
    console.log(
      `${r.requests} requests in ${r.durationMs / 1000} s (Redis SIGKILLed at ${r.killedAtMs / 1000} s, restarted at ${r.restartedAtMs / 1000} s): failed ${r.failed}; statuses ${JSON.stringify(r.statuses)}`,
    );
    for (const x of r.failures) console.log(`    ${x}`);
    if (r.failed) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
