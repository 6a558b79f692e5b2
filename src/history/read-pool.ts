import { Worker } from 'node:worker_threads';
import type { AnswerRequest, CallRequest, ReadResponse, ReadWorkerData } from './read-protocol.ts';

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve(v: unknown): void; reject(e: Error): void }>;
}

/** Heap of one read worker: a maximal answer's rows and JSON fit several times over. */
const WORKER_HEAP_MB = 256;

/**
 * A small pool of history read workers (read-worker.ts), started on first use and kept for the
 * process: each request goes to the worker with the fewest requests in flight. A worker that dies
 * fails its requests (the history answers 503) and is replaced on the next request.
 */
export class ReadPool {
  private readonly slots: Slot[] = [];
  private next = 1;

  private readonly size: number;
  private readonly data: ReadWorkerData;
  constructor(size: number, data: ReadWorkerData) {
    this.size = size;
    this.data = data;
  }

  run<T>(req: AnswerRequest | CallRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    const slot = this.pick();
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      slot.worker.ref();
      slot.worker.postMessage({ ...req, id }, transfer);
    });
  }

  private pick(): Slot {
    const idle = this.slots.reduce<Slot | null>((best, s) => (best === null || s.pending.size < best.pending.size ? s : best), null);
    if (idle && (idle.pending.size === 0 || this.slots.length >= this.size)) return idle;
    return this.spawn();
  }

  private spawn(): Slot {
    const compiled = import.meta.url.endsWith('.js');
    // Tests and development run the TypeScript sources on Node's type stripping; the worker then does too.
    const worker = new Worker(new URL(compiled ? './read-worker.js' : './read-worker.ts', import.meta.url), {
      workerData: this.data,
      // None of the main thread's command-line flags (its V8 tuning) is passed on: the worker needs none.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (res: ReadResponse) => {
      const p = slot.pending.get(res.id);
      if (!p) return;
      slot.pending.delete(res.id);
      if (!slot.pending.size) worker.unref();
      if (res.ok) p.resolve(res.value);
      else p.reject(new Error(res.message));
    });
    const fail = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      for (const p of slot.pending.values()) p.reject(err);
      slot.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('history read worker exited')));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
