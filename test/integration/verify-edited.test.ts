// `switchyard verify` with the owner's key against a service whose stored rows were edited behind
// its back (the test drops the append-only triggers and UPDATEs rows): a delivery's body (with and
// without its recorded SHA-256), its headers and a public field, an invocation's private result and
// public status. Each edit makes verify fail naming the field; put back, the entry verifies again.
// The real bin in a child process, on SQLite and (in CI) PostgreSQL.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { PROJECT_ROOT } from '@switchyard/app';
import { dialectFor, knexConfig } from '@switchyard/storage-knex';
import { TEST_API_KEY, engines, startListeningService, type ListeningService } from '../support/app.js';

const BIN = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
const run = promisify(execFile);
const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';

for (const engine of engines()) {
  describe(`switchyard verify finds edited rows (${engine})`, function () {
    this.timeout(60_000);
    let svc: ListeningService;
    let db: Knex;
    let verifierKey: string;
    let delivery: string;
    let invocation: string;

    const cli = async (id: string) => {
      try {
        const { stdout } = await run(process.execPath, [BIN, 'verify', id], { env: { ...process.env, SWITCHYARD_URL: svc.url, SWITCHYARD_API_KEY: TEST_API_KEY, SWITCHYARD_VERIFIER_KEY: verifierKey } });
        return { code: 0, out: stdout };
      } catch (err) {
        const e = err as { code: number; stdout: string; stderr: string };
        return { code: e.code, out: e.stderr };
      }
    };
    const api = async (path: string, init: RequestInit = {}) => (await fetch(`${svc.url}${path}`, { ...init, headers: { 'x-sheets-key': TEST_API_KEY, ...(init.headers ?? {}) } })).json() as Promise<Record<string, any>>;
    const integrated = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        if ((await api(`/api/dispatch?confirm=${id}`))['status'] === 'integrated') return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${id} never integrated`);
    };
    /** Applies an edit, expects verify to name `field`, then puts the row back and expects it to verify. */
    const editNamed = async (id: string, table: 'deliveries' | 'invocations', edit: (row: Record<string, any>) => Record<string, unknown>, field: string) => {
      const row = (await db(table).where({ id }).first()) as Record<string, any>;
      await db(table).where({ id }).update(edit(row));
      const refused = await cli(id);
      expect(refused.code, refused.out).to.equal(1);
      expect(refused.out).to.contain('proof_invalid').and.contain(`differs from its leaf in ${field} `);
      await db(table).where({ id }).update(Object.fromEntries(Object.keys(edit(row)).map((k) => [k, row[k]])));
      expect((await cli(id)).code).to.equal(0);
    };

    before(async () => {
      svc = await startListeningService(engine, { ledger: { integrateIntervalMs: 50 } });
      verifierKey = (await api('/api/proven-work/key'))['verifier_key'];
      const hook = await api('/api/objects/webhook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'edited' }) });
      const sent = await fetch(`${svc.url}/hook/${hook['id']}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 'one' }, body: '{"order":42,"paid":true}' });
      delivery = ((await sent.json()) as { entry: string }).entry;
      invocation = (await api('/api/dispatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: EDGE, body: { workerId: '0123456789abcdef0123456789abcdef' } }) }))['invocation'].id;
      await integrated(delivery);
      await integrated(invocation);
      db = knexFactory(knexConfig(svc.db.url));
      for (const table of ['deliveries', 'invocations']) for (const sql of dialectFor(db).dropAppendOnly(table)) await db.raw(sql);
    });
    after(async () => {
      await db?.destroy();
      await svc?.close();
    });

    it('verifies the untouched delivery and invocation with the key: the receipt, the record as served and the stored body', async () => {
      const d = await cli(delivery);
      expect(d.code, d.out).to.equal(0);
      expect(d.out).to.contain(`delivery ${delivery} is leaf`).and.contain('the receipt opens its commitment, and the stored body hashes to it');
      const i = await cli(invocation);
      expect(i.code, i.out).to.equal(0);
      expect(i.out).to.contain('the receipt opens its commitment');
    });

    it('names the body when one byte of a stored body changed, with or without its recorded SHA-256', async () => {
      const flipped = (row: Record<string, any>) => {
        const body = Buffer.from(row['body'] as Uint8Array);
        body[10] = body[10]! ^ 1;
        return body;
      };
      await editNamed(delivery, 'deliveries', (row) => ({ body: flipped(row) }), 'body');
      await editNamed(delivery, 'deliveries', (row) => ({ body: flipped(row), body_sha256: createHash('sha256').update(flipped(row)).digest('hex') }), 'body');
    });

    it('names the headers, and a public field, of an edited delivery', async () => {
      await editNamed(delivery, 'deliveries', (row) => ({ headers: String(row['headers']).replace('"one"', '"two"') }), 'headers');
      await editNamed(delivery, 'deliveries', (row) => ({ received_at: String(row['received_at']).replace(/\d(?=Z$)/, (d) => String((Number(d) + 1) % 10)) }), 'received_at');
    });

    it('names a private and a public field of an edited invocation record', async () => {
      const record = (row: Record<string, any>) => JSON.parse(String(row['record'])) as Record<string, any>;
      await editNamed(invocation, 'invocations', (row) => ({ record: JSON.stringify({ ...record(row), result: { ...record(row)['result'], active_worker_id: 'fedcba9876543210fedcba9876543210' } }) }), 'result');
      await editNamed(invocation, 'invocations', (row) => ({ status: 'failed', record: JSON.stringify({ ...record(row), status: 'failed' }) }), 'status');
    });
  });
}
