import { FakeUpstream, fixture } from './test/helpers/fake-upstream.ts';
import { fixtureSettings, registerAllFixtures } from './test/fixtures/index.ts';
import { fakeEnv } from './test/helpers/app.ts';
import { main } from './scripts/check-upstreams.ts';
const fake = await new FakeUpstream().start();
const w = () => JSON.parse(fixture('brightsky/current_weather-feldberg-2022-07-24.json').toString());
const cases: Record<string, () => any> = {
  renamed: () => { const b = w(); b.weather.observation_time = b.weather.timestamp; delete b.weather.timestamp; return { json: b }; },
  changed: () => { const b = w(); b.sources[0].lat = '47.8749'; return { json: b }; },
  html: () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!DOCTYPE html><html><head><title>Wartungsarbeiten</title></head><body>Bitte später</body></html>' }),
  empty: () => ({ headers: { 'content-type': 'application/json' }, body: '' }),
  extra: () => { const b = w(); return { json: b }; },
};
for (const [name, reply] of Object.entries(cases)) {
  fake.reset(); registerAllFixtures(fake);
  fake.get('/current_weather', reply());
  await main(['--type', 'weather'], { ...fakeEnv(fake.url), ...fixtureSettings() }, { out: (l) => console.log(name.padEnd(8), l), err: () => {} });
}
await fake.stop();
