// Builds ledger leaves in a worker thread. Reading a batch of queued entries and hashing them is
// most of integration's CPU; on the thread that answers HTTP it competes with every request. The
// worker opens its own read connection to the same database (a SQLite file or PostgreSQL) and
// answers one batch per request; the integrating thread keeps the short write phase.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparedLeaf, QueuedLeafReader, SeqRange } from './queued-leaves.js';

export type LeafWorkerRequest = { type: 'read'; id: number; max: number; commitmentKey: string; skip?: SeqRange } | { type: 'close' };
export type LeafWorkerAnswer = { id: number; leaves: PreparedLeaf[] } | { id: number; error: string };

// The thread's entry sits beside this file: .js when running from dist, .ts when running from
// source. Node 20 does not carry the main thread's module hooks into workers, so from source the
// worker registers tsx itself before it imports the entry.
const fromSource = extname(fileURLToPath(import.meta.url)) === '.ts';
const entry = new URL(`./leaf-worker-thread${fromSource ? '.ts' : '.js'}`, import.meta.url);
const startWorker = (workerData: unknown): Worker =>
  fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData })
    : new Worker(entry, { workerData });

export class WorkerLeafReader implements QueuedLeafReader {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(leaves: PreparedLeaf[]): void; reject(e: Error): void }>();

  constructor(private readonly databaseUrl: string) {}

  read(max: number, commitmentKey: Uint8Array, skip?: SeqRange): Promise<PreparedLeaf[]> {
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise<PreparedLeaf[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ type: 'read', id, max, commitmentKey: Buffer.from(commitmentKey).toString('base64'), skip } satisfies LeafWorkerRequest);
    });
  }

  /** Lets the worker close its connection and exit; terminates it if it does not within a second. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies LeafWorkerRequest);
    const timer = setTimeout(() => void worker.terminate(), 1000);
    await exited;
    clearTimeout(timer);
  }

  private spawn(): Worker {
    const worker = startWorker({ databaseUrl: this.databaseUrl });
    worker.unref(); // background work: never what keeps the process alive
    worker.on('message', (answer: LeafWorkerAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if ('error' in answer) waiter?.reject(new Error(answer.error));
      else waiter?.resolve(answer.leaves);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined; // the next read starts a fresh worker
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the leaf-building worker exited (code ${code})`)));
    return worker;
  }
}
