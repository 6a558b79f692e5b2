import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { chunkPerTurn } from '../src/http/formats/send.ts';
import { csvChunks } from '../src/http/formats/csv.ts';
import type { Column } from '../src/core/table.ts';

/**
 * A long CSV or GeoJSON answer renders one chunk per turn of the event loop, so requests that
 * arrive meanwhile are served between its chunks: a setImmediate loop running beside the stream
 * advances between every two chunks, and the bytes are those of the chunks in order.
 */
const columns: Column[] = [
  { name: 'id', path: ['id'], kind: 'scalar' },
  { name: 'name', path: ['name'], kind: 'scalar' },
];
const rows = Array.from({ length: 6000 }, (_, i) => ({ id: i, name: `Tankstelle ${i}, "Nord"` }));

/** Reads the stream to its end, noting for every chunk rendered the turn of the event loop it was rendered in. */
async function turnsPerChunk(render: (chunks: Iterator<string>) => Readable, chunks: Iterator<string>): Promise<{ turns: number[]; text: string }> {
  let turn = 0;
  let done = false;
  const tick = () => {
    turn++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const turns: number[] = [];
  const noted: Iterator<string> = {
    next: () => {
      const r = chunks.next();
      if (!r.done) turns.push(turn);
      return r;
    },
  };
  let text = '';
  try {
    for await (const chunk of render(noted)) text += String(chunk);
  } finally {
    done = true;
  }
  return { turns, text };
}

test('a streamed table yields to the event loop between chunks, with the same bytes', async () => {
  const whole = [...csvChunks(columns, rows)].join('');
  const { turns, text } = await turnsPerChunk(chunkPerTurn, csvChunks(columns, rows));
  assert.equal(text, whole);
  assert.ok(turns.length > 20, `${turns.length} chunks`);
  for (let i = 1; i < turns.length; i++) assert.ok(turns[i]! > turns[i - 1]!, `chunk ${i} was rendered in the same turn as chunk ${i - 1}`);
});

test('a failing row source ends the stream with its error', async () => {
  function* failing() {
    yield 'a\r\n';
    throw new Error('row source failed');
  }
  await assert.rejects(turnsPerChunk(chunkPerTurn, failing()), /row source failed/);
});
