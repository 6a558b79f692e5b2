import type { FakeUpstream } from '../test/helpers/fake-upstream.ts';

/**
 * A Tankerkönig list answer (its real format, built: `rows` stations around Frankfurt), served at its real path:
 * the large list both format benches render.
 */
export function registerStations(fake: Pick<FakeUpstream, 'get'>, rows: number): void {
  const stations = Array.from({ length: rows }, (_, i) => ({
    id: `bench-${i}`,
    name: `Tankstelle ${i}, "Nord"`,
    brand: i % 2 ? 'ARAL' : 'ESSO',
    street: 'Hanauer Landstraße',
    place: 'Frankfurt',
    lat: 50.1 + (i % 200) / 1000,
    lng: 8.6 + Math.floor(i / 200) / 1000,
    dist: (i % 250) / 10,
    price: 1.4 + (i % 50) / 1000,
    isOpen: i % 7 !== 0,
    houseNumber: String(i),
    postCode: 60314,
  }));
  const body = JSON.stringify({ ok: true, license: 'CC BY 4.0 -  https://creativecommons.tankerkoenig.de', data: 'MTS-K', status: 'ok', stations });
  fake.get('/json/list.php', { body, headers: { 'content-type': 'application/json' } });
}
