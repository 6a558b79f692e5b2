import { FakeUpstream, fixture } from './test/helpers/fake-upstream.ts';
import { fixtureSettings, registerAllFixtures } from './test/fixtures/index.ts';
import { fakeEnv } from './test/helpers/app.ts';
import { main } from './scripts/check-upstreams.ts';
const fake = await new FakeUpstream().start();
const j = (f: string) => JSON.parse(fixture(f).toString());
const cases: [string, string, string | RegExp, () => any][] = [
  ['parkapi lat->latitude', 'parking', '/park-api/api/public/v3/parking-sites', () => { const b = j('parkapi-v3/parking-sites-stuttgart-constructed.json'); for (const i of b.items) { i.latitude = i.lat; delete i.lat; } return { json: b }; }],
  ['parkapi capacity str', 'parking', '/park-api/api/public/v3/parking-sites', () => { const b = j('parkapi-v3/parking-sites-stuttgart-constructed.json'); for (const i of b.items) { i.capacity = String(i.capacity); } return { json: b }; }],
  ['parkapi items->results', 'parking', '/park-api/api/public/v3/parking-sites', () => { const b = j('parkapi-v3/parking-sites-stuttgart-constructed.json'); return { json: { results: b.items } }; }],
];
for (const [name, type, path, reply] of cases) {
  fake.reset(); registerAllFixtures(fake);
  fake.get(path, reply());
  await main(['--type', type, '--city', 'stuttgart'], { ...fakeEnv(fake.url), ...fixtureSettings() }, { out: (l) => console.log(name.padEnd(24), l), err: () => {} });
}
await fake.stop();
