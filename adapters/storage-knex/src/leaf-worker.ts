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
// worker registers tsx before it imports the entry. An eval'd worker resolves 'tsx' from the working
// directory: the project root, where every npm script that runs from source starts.
const fromSource = extname(fileURLToPath(import.meta.url)) === '.ts';
const entry = new URL(`./leaf-worker-thread${fromSource ? '.ts' : '.js'}`, import.meta.url);
const startWorker = (workerData: unknown): Worker =>
  fromSource
    ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData })
    : new Worker(entry, { workerData });

type Waiter = { resolve(leaves: PreparedLeaf[]): void; reject(e: Error): void };

export class WorkerLeafReader implements QueuedLeafReader {
  private current: { worker: Worker; waiting: Map<number, Waiter> } | undefined;
  private nextId = 0;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  read(max: number, commitmentKey: Uint8Array, skip?: SeqRange): Promise<PreparedLeaf[]> {
    if (this.closed) return Promise.reject(new Error('the leaf reader is closed'));
    const { worker, waiting } = (this.current ??= this.spawn());
    const id = this.nextId++;
    return new Promise<PreparedLeaf[]>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ type: 'read', id, max, commitmentKey: Buffer.from(commitmentKey).toString('base64'), skip } satisfies LeafWorkerRequest);
    });
  }

  /** Lets the worker close its connection and exit; terminates it if it does not within a second. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.current?.worker;
    if (!worker) return;
    this.current = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies LeafWorkerRequest);
    const timer = setTimeout(() => void worker.terminate(), 1000);
    await exited;
    clearTimeout(timer);
  }

  /** A worker and the reads it owes: when it fails or exits, only those are refused. */
  private spawn(): { worker: Worker; waiting: Map<number, Waiter> } {
    const worker = startWorker({ databaseUrl: this.databaseUrl });
    const waiting = new Map<number, Waiter>();
    const spawned = { worker, waiting };
    worker.unref(); // background work: never what keeps the process alive
    worker.on('message', (answer: LeafWorkerAnswer) => {
      const waiter = waiting.get(answer.id);
      waiting.delete(answer.id);
      if ('error' in answer) waiter?.reject(new Error(answer.error));
      else waiter?.resolve(answer.leaves);
    });
    const fail = (error: Error) => {
      if (this.current === spawned) this.current = undefined; // the next read starts a fresh worker
      for (const waiter of waiting.values()) waiter.reject(error);
      waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the leaf-building worker exited (code ${code})`)));
    return spawned;
  }
}
