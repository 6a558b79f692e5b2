import type { FakeUpstream } from './fake-upstream.ts';
import { fixture } from './fake-upstream.ts';
import { DRESDEN_V1, replayAsCurrent } from '../fixtures/city-parking/routes.ts';
import type { SseEvent } from './sse.ts';

/** Serves the Dresden recording (made current) with the Altmarkt-Galerie's free spaces set to `free`: an upstream change. */
export function dresdenWith(fake: FakeUpstream, free: number) {
  const body = replayAsCurrent(fixture(DRESDEN_V1).toString('utf8')).replace('"free": 212', `"free": ${free}`);
  fake.get('/Dresden', () => ({ body, headers: { 'content-type': 'application/json' } }));
}

/** The Altmarkt-Galerie's free spaces in a stream event's envelope. */
export const freeOf = (e: SseEvent) =>
  (JSON.parse(e.data) as { data: { name: string; free_spaces: number }[] }).data.find((s) => s.name === 'Altmarkt-Galerie')?.free_spaces;
