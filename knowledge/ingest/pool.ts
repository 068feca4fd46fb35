import { availableParallelism } from 'node:os';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { ParseJob, ParseOutcome, WorkerReply } from './protocol.js';

/** Heap ceiling of one parser: a pathological PDF fails its own job instead of the whole process. */
const WORKER_HEAP_MB = 1024;

export const defaultPoolSize = (): number => Math.max(1, Math.min(2, availableParallelism()));

interface PendingJob {
  jobId: number;
  job: ParseJob;
  onPage: (page: number, total: number) => void;
  resolve: (outcome: ParseOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  current: PendingJob | undefined;
}

/**
 * Parser worker threads: loading and chunking run here so the main thread, which holds the
 * indexes, stays free to answer searches. Jobs wait in a queue; each worker takes one at a time.
 * A worker that dies (out of memory, say) fails its job and is replaced by the next dispatch.
 */
export class ParsePool {
  private readonly queue: PendingJob[] = [];
  private readonly slots = new Set<Slot>();
  private nextJobId = 1;
  private closed = false;

  constructor(readonly size: number = defaultPoolSize()) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`a parser pool needs at least one worker, not ${size}`);
  }

  run(job: ParseJob, onPage: (page: number, total: number) => void = () => undefined): Promise<ParseOutcome> {
    if (this.closed) return Promise.reject(new Error('the parser pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ jobId: this.nextJobId++, job, onPage, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('the parser pool is closed'));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) slot.current?.reject(new Error('the parser pool is closed'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot() ?? (this.slots.size < this.size ? this.spawn() : undefined);
      if (!slot) return;
      const pending = this.queue.shift();
      if (!pending) return;
      slot.current = pending;
      slot.worker.ref();
      slot.worker.postMessage({ jobId: pending.jobId, job: pending.job });
    }
  }

  private idleSlot(): Slot | undefined {
    for (const slot of this.slots) if (!slot.current) return slot;
    return undefined;
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(), current: undefined };
    this.slots.add(slot);
    slot.worker.on('message', (reply: WorkerReply) => this.onReply(slot, reply));
    slot.worker.on('error', (error) => this.retire(slot, `the parser stopped: ${error.message}`));
    slot.worker.on('exit', (code) => this.retire(slot, `the parser exited with code ${code}`));
    return slot;
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const pending = slot.current;
    if (!pending || pending.jobId !== reply.jobId) return;
    if (reply.type === 'page') {
      pending.onPage(reply.page, reply.total);
      return;
    }
    slot.current = undefined;
    // An idle worker must not keep the process alive.
    slot.worker.unref();
    if (reply.type === 'done') pending.resolve(reply.outcome);
    else pending.reject(new Error(reply.error));
    this.dispatch();
  }

  private retire(slot: Slot, reason: string): void {
    if (!this.slots.delete(slot)) return;
    slot.current?.reject(new Error(reason));
    slot.current = undefined;
    void slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}

/**
 * The worker entry is the `.js` sibling in the built `dist/`; when running from the TypeScript
 * sources (tsx, vitest) it is the `.ts` sibling, loaded after registering tsx in the worker
 * (`execArgv: ['--import', 'tsx']` does not reach a worker's own entry module on Node 20).
 */
function startWorker(): Worker {
  const options: WorkerOptions = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./worker.js', import.meta.url), options);
  const entry = new URL('./worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
