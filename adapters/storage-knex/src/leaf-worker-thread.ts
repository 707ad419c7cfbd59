// The leaf-building worker thread (see leaf-worker.ts): its own read connection; it answers each
// read as it comes (the integrator asks for one batch, and at most one more read ahead).
import { parentPort, workerData } from 'node:worker_threads';
import knexFactory from 'knex';
import { readerConfig } from './database-url.js';
import type { LeafWorkerAnswer, LeafWorkerRequest } from './leaf-worker.js';
import { readQueuedLeaves } from './queued-leaves.js';

const port = parentPort!;
const db = knexFactory(readerConfig((workerData as { databaseUrl: string }).databaseUrl));

port.on('message', (request: LeafWorkerRequest) => {
  if (request.type === 'close') {
    void db.destroy().finally(() => port.close());
    return;
  }
  readQueuedLeaves(db, request.max, new Uint8Array(Buffer.from(request.commitmentKey, 'base64')), request.skip).then(
    (leaves) => port.postMessage({ id: request.id, leaves } satisfies LeafWorkerAnswer),
    (error: unknown) => port.postMessage({ id: request.id, error: (error as Error).message } satisfies LeafWorkerAnswer),
  );
});
