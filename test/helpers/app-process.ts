import { fork, type ChildProcess } from 'node:child_process';
import { npmStartArgs } from '../../bench/npm-start.ts';

/** A service in a child process (test/helpers/app-process-main.ts), for measuring its memory without the test's. */
export interface AppProcess {
  url: string;
  pid: number;
  /** Memory in MB after forced garbage collection in the service's process: resident, heap used and reserved, outside the heap. */
  memory(): Promise<{ rssMb: number; heapMb: number; heapTotalMb: number; externalMb: number }>;
  close(): Promise<void>;
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the service process exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
  });
}

/** Starts startApp(env) in a child process with --expose-gc and the V8 flags of `npm start`; its stderr goes to this process's. */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const child = fork(new URL('./app-process-main.ts', import.meta.url), [], {
    // The V8 flags of `npm start`: the young generation's size is most of what a busy process adds to its RSS.
    execArgv: ['--expose-gc', ...npmStartArgs().filter((a) => a.startsWith('--'))],
    env: { ...process.env, APP_PROCESS_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { url } = await nextMessage<{ url: string }>(child);
  const mb = (n: number) => n / 1024 / 1024;
  return {
    url,
    pid: child.pid!,
    async memory() {
      const answer = nextMessage<{ rss: number; heapUsed: number; heapTotal: number; external: number }>(child);
      child.send('memory');
      const m = await answer;
      return { rssMb: mb(m.rss), heapMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external) };
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.send('close');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
