// A webhook delivery stored, whose action's run the database then refused to reserve (the sender
// was answered 503): the sender's retry is a duplicate, and it runs the pending action of the first
// delivery, once, with its body. A retry while that run is going does not run it again, nor does
// any later one. The fault is real: the reservations table taken away between the two writes
// (renamed, then put back). On SQLite and PostgreSQL, against a real stdio upstream that marks a file.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Knex } from 'knex';
import type { Database } from '@switchyard/storage-knex';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';
import { eventually, startReceiver, type Receiver } from '../support/receiver.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const marksIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

for (const engine of engines()) {
  describe(`hook actions: a run not reserved after its delivery was stored (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let writer: Knex;
    let dir: string;
    let marks: string;
    let hookId: string;
    let rx: Receiver;

    before(async () => {
      rx = await startReceiver();
      dir = mkdtempSync(join(tmpdir(), 'switchyard-hook-window-'));
      marks = join(dir, 'marks');
      svc = await startTestService(engine, {
        upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: OPEN } } },
        webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 20 } },
      });
      http = request(svc.switchyard.app);
      writer = (await svc.switchyard.container.getAsync<Database>(Symbol.for('switchyard.Database'))).knex;
      hookId = (await http.post('/api/objects/webhook').set('x-sheets-key', TEST_API_KEY).send({ name: 'actions under faults' }).expect(201)).body.id;
      // Accepted deliveries go on to a destination too: a delivery whose action was pending must still be forwarded.
      await http.post(`/api/objects/webhook/${hookId}/destinations`).set('x-sheets-key', TEST_API_KEY).send({ url: rx.url() }).expect(201);
    });
    after(async () => {
      await svc?.close();
      await rx?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const deliver = (deliveryId: string, body: Record<string, unknown>) => http.post(`/hook/${hookId}/SIDE_MARK`).set('content-type', 'application/json').set('webhook-id', deliveryId).send(JSON.stringify(body));
    /** Delivers while the reservations table is away: stored, then the run refused (503). */
    const deliverUnreserved = async (deliveryId: string, body: Record<string, unknown>) => {
      await writer.raw('ALTER TABLE run_reservations RENAME TO run_reservations_away');
      try {
        return await deliver(deliveryId, body);
      } finally {
        await writer.raw('ALTER TABLE run_reservations_away RENAME TO run_reservations');
      }
    };
    const deliveriesOf = async (deliveryId: string) =>
      ((await http.get(`/api/ledger?event=webhook%20delivery&hook=${hookId}&limit=1000&order=append`).set('x-sheets-key', TEST_API_KEY).expect(200)).body.items as Array<{ id: string; delivery_id: string; duplicate: boolean; action_run: { invocation: string } | null }>).filter((d) => d.delivery_id === deliveryId);

    it("runs the first delivery's action on the sender's retry, once, with the first body; later retries answer its run", async () => {
      const refused = await deliverUnreserved('win-1', { label: 'window-1' });
      expect(refused.status, refused.text).to.equal(503);
      expect(refused.headers['retry-after']).to.match(/^\d+$/);
      expect(refused.body.error).to.include({ code: 'storage_unavailable', ran: false });
      expect(marksIn(marks)).to.not.include('window-1');
      const [first] = await deliveriesOf('win-1');
      expect(first).to.include({ duplicate: false, action_run: null });

      // The retry (its body may differ; the first delivery's is what runs).
      const retry = await deliver('win-1', { label: 'window-1-retry' }).expect(200);
      expect(retry.body.ok).to.equal(true);
      expect(retry.body.invocation).to.include({ ok: true, source: `hook:${hookId}/${first!.id}` });
      expect(retry.body.delivery).to.include({ duplicate: true, duplicate_of: first!.id });
      expect(marksIn(marks).filter((m) => m.startsWith('window-1'))).to.deep.equal(['window-1']);
      const [linked] = await deliveriesOf('win-1');
      expect(linked!.action_run!.invocation).to.equal(retry.body.invocation.id);
      // The first delivery, never forwarded when its action was refused, is forwarded now, once (the retry, a duplicate, is not).
      await eventually(async () => (rx.received.some((r) => r.headers['webhook-id'] === first!.id) ? true : undefined), 'the first delivery to be forwarded');

      const again = await deliver('win-1', { label: 'window-1' }).expect(200);
      expect(again.body.action).to.include({ ran: false, reason: 'duplicate' });
      expect(again.body.action.first_run.invocation).to.equal(retry.body.invocation.id);
      expect(marksIn(marks).filter((m) => m.startsWith('window-1'))).to.deep.equal(['window-1']);
      expect(rx.received.filter((r) => r.headers['webhook-id'] === first!.id)).to.have.length(1);
      expect(rx.received.filter((r) => r.headers['webhook-id'] === retry.body.delivery.id || r.headers['webhook-id'] === again.body.delivery?.id)).to.have.length(0);
    });

    it('a retry while the pending action runs for another retry does not run it again', async () => {
      const refused = await deliverUnreserved('win-2', { label: 'window-2', hold: true });
      expect(refused.status, refused.text).to.equal(503);
      const running = deliver('win-2', { label: 'window-2', hold: true }).then((r) => r);
      await eventually(async () => (marksIn(marks).includes('window-2') ? true : undefined), 'the pending action to reach the upstream');
      const meanwhile = await deliver('win-2', { label: 'window-2', hold: true }).expect(200);
      expect(meanwhile.body).to.include({ duplicate: true });
      expect(meanwhile.body.action).to.include({ ran: false, reason: 'duplicate', first_run: null });
      writeFileSync(`${marks}.release`, '');
      const ran = await running;
      expect(ran.status, ran.text).to.equal(200);
      expect(ran.body.invocation.ok).to.equal(true);
      expect(marksIn(marks).filter((m) => m === 'window-2')).to.have.length(1);
      const later = await deliver('win-2', { label: 'window-2', hold: true }).expect(200);
      expect(later.body.action.first_run.invocation).to.equal(ran.body.invocation.id);
      expect(marksIn(marks).filter((m) => m === 'window-2')).to.have.length(1);
    });
  });
}
