// A second baseline for the ingest benchmark: the no-op's Express app, where /hook/:id does what
// the service does to store a delivery (the same raw reader, the service's own record builder with
// its delivery-id resolution, and the group-commit append, on its own SQLite file) and nothing else:
// no webhook lookup, no Switchyard routing, and no ledger integration (entries are queued by the
// trigger and never integrated). Between the no-op and this, the cost of storing; between this and
// the service, the rest, mostly the Merkle ledger.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { deliveryRecord, type Webhook } from '@switchyard/core';
import { readBody } from '@switchyard/http-kit';
import { deliveryHead } from '@switchyard/http-api';
import { KnexDeliveryStore, openDatabase } from '@switchyard/storage-knex';

const databaseUrl = process.argv[2];
if (!databaseUrl?.startsWith('sqlite:')) throw new Error('usage: ledgerless-main.ts sqlite:<file>');
const db = await openDatabase(databaseUrl, { leafWorker: false });
const store = new KnexDeliveryStore(db.knex);
/** Stands in for the webhook the service would look up: On, no own id path, no signature. */
const webhook = (id: string): Webhook => ({ id, name: 'ledgerless', on: true, delivery_id_path: null, event_type_path: null, signature: null, retention_private_days: null, created_at: '', updated_at: '' });
const app = express();
app.disable('x-powered-by');
app.post('/hook/:id', async (req, res) => {
  const read = await readBody(req, 10 * 1024 * 1024);
  const body = read.kind === 'body' ? read.bytes : Buffer.alloc(0);
  const id = req.params['id'] as string;
  const stored = await store.append(deliveryRecord(deliveryHead(req, id, null), webhook(id), body, body.length, new Date()));
  res.status(200).json({ ok: true, entry: stored.id, duplicate: stored.duplicate });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => void db.close().then(() => process.exit(0))));
