// A second baseline for the ingest benchmark: the no-op's Express app, where /hook/:id does what
// the service does to store a delivery (the same raw reader, delivery-id resolution and group-commit
// append, on its own SQLite file) and nothing else: no webhook lookup, no Switchyard routing, and no
// ledger integration (entries are queued by the trigger and never integrated). Between the no-op and
// this, the cost of storing; between this and the service, the rest, mostly the Merkle ledger.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { newDeliveryEntryId, resolveDeliveryId } from '@switchyard/core';
import { rawBody } from '@switchyard/http-express';
import { KnexDeliveryStore, openDatabase } from '@switchyard/storage-knex';

const databaseUrl = process.argv[2];
if (!databaseUrl?.startsWith('sqlite:')) throw new Error('usage: ledgerless-main.ts sqlite:<file>');
const db = await openDatabase(databaseUrl, { leafWorker: false });
const store = new KnexDeliveryStore(db.knex);
const app = express();
app.disable('x-powered-by');
app.post('/hook/:id', rawBody(10 * 1024 * 1024), async (req, res) => {
  const body = req.body as Buffer;
  const headers: Array<[string, string]> = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  const found = resolveDeliveryId({ headers, body, contentType: req.get('content-type') ?? null, webhookPath: null });
  const stored = await store.append({
    id: newDeliveryEntryId(), hook_id: req.params['id'] as string, received_at: new Date().toISOString(), method: req.method, path: req.path, query: '',
    headers, body, body_size: body.length, client_address: req.socket.remoteAddress ?? null, delivery_id: found?.id ?? null, delivery_id_rule: found?.rule ?? null,
    signature: null, outcome: 'accepted', refusal: null, action: null,
  });
  res.status(200).json({ ok: true, entry: stored.id, duplicate: stored.duplicate });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => void db.close().then(() => process.exit(0))));
