import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MemorySample } from './memory-server-child.ts';

export type { MemorySample };

/** The service in a child process whose memory can be read after forced collections (see memory-server-child.ts). */
export interface MemoryServer {
  url: string;
  pid: number;
  /** The server's memory after several forced full collections. */
  measure(): Promise<MemorySample>;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./memory-server-child.ts', import.meta.url));

/** Starts the service on the fake upstream in a child process; `env` is added to its configuration, `nodeFlags` to Node's. */
export async function startMemoryServer(env: Record<string, string> = {}, nodeFlags: readonly string[] = []): Promise<MemoryServer> {
  const child: ChildProcess = fork(CHILD, [], {
    execArgv: [...nodeFlags, '--expose-gc'],
    env: { ...process.env, MEMORY_SERVER_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the memory server exited (${code}) before listening`)));
  });
  let next = 0;
  return {
    url,
    pid: child.pid!,
    measure: () =>
      new Promise((resolve) => {
        const id = ++next;
        const on = (m: unknown) => {
          const msg = m as { id?: number; sample?: MemorySample };
          if (msg.id !== id || !msg.sample) return;
          child.off('message', on);
          resolve(msg.sample);
        };
        child.on('message', on);
        child.send({ id, ask: 'measure' });
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.send({ id: 0, ask: 'stop' });
      }),
  };
}
