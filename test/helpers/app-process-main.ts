/**
 * The child side of app-process.ts: one service (startApp) in its own process, so its memory can be
 * measured alone. Its settings come as JSON in APP_PROCESS_ENV; it reports its URL, answers
 * `memory` with its usage after two forced collections, and `close` by stopping.
 */
import { startApp } from './app.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('app-process-main runs forked with --expose-gc');
const app = await startApp(JSON.parse(process.env.APP_PROCESS_ENV ?? '{}') as Record<string, string>);
process.send({ url: app.url });
process.on('message', (m: unknown) => {
  if (m === 'memory') {
    // Two passes with a turn between: the first frees what finalizers then let the second free.
    gc();
    setImmediate(() => {
      gc();
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      process.send?.({ rss, heapUsed, heapTotal, external });
    });
  } else if (m === 'close') {
    void app.close().finally(() => process.exit(0));
  }
});
