// The baseline for the ingest benchmark: an Express app whose /hook route reads the body with the
// same raw reader the service uses, and answers 200 without storing anything.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { readBody } from '@switchyard/http-kit';

const app = express();
app.disable('x-powered-by');
app.post('/hook/:id', async (req, res) => {
  const read = await readBody(req, 10 * 1024 * 1024);
  res.status(200).json({ ok: true, bytes: read.kind === 'body' ? read.bytes.length : 0 });
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
