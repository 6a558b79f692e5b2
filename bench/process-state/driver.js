/**
 * The `proxy` state's warm-up load (bench/process-state/server.js), from a process of its own so that its
 * HTTP client runs nowhere near the front: 300 rounds of the backend's six answer kinds through the front.
 */
const base = process.argv[2];
const kinds = ['json', 'json', 'json', 'chunked', 'gzip', 'sse'];
for (let round = 0; round < 300; round++) {
  await Promise.all(
    kinds.map((kind, j) =>
      globalThis
        .fetch(`${base}/p/${kind}?i=${round * kinds.length + j}`, {
          headers: { [`x-c${j}`]: 'v', accept: kind === 'sse' ? 'text/event-stream' : '*/*' },
        })
        .then((r) => r.arrayBuffer()),
    ),
  );
}
process.send?.('done');
