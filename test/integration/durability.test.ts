// Durability: stream deliveries at a service process, kill -9 it mid-stream, restart it on the
// same database, and check that every delivery that got a 2xx is in the ledger, whole and
// byte-exact. On SQLite and (in CI) PostgreSQL.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';

const CONFIG_ENV = { SWITCHYARD_API_KEY: TEST_API_KEY };

for (const engine of engines()) {
  describe(`durability: kill -9 mid-stream (${engine})`, function () {
    this.timeout(90_000);

    it('keeps every acknowledged delivery, byte-exact, across a crash', async function () {
      const db = await freshDatabase(engine);
      let service: { child: Child; url: string } | undefined;
      try {
        service = await startServiceProcess({ ...CONFIG_ENV, DATABASE_URL: db.url });
        const created = await fetch(`${service.url}/api/objects/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY },
          body: JSON.stringify({ name: 'crash-test' }),
        });
        const hook = (await created.json()) as { id: string };
        const acknowledged = new Map<string, Buffer>();
        let sent = 0;
        const url = `${service.url}/hook/${hook.id}`;

        // 8 concurrent senders; the kill lands while requests are in flight.
        const sender = async (): Promise<void> => {
          for (;;) {
            const body = Buffer.from(`{"id":"evt_${sent++}","pad":"${randomBytes(600).toString('base64url')}"}`);
            try {
              const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
              if (res.status >= 200 && res.status < 300) {
                const receipt = (await res.json()) as { entry: string };
                acknowledged.set(receipt.entry, body);
              }
            } catch {
              return; // the process is gone
            }
          }
        };
        const senders = Array.from({ length: 8 }, sender);
        while (acknowledged.size < 300) await new Promise((r) => setTimeout(r, 10));
        await service.child.kill();
        await Promise.all(senders);
        expect(acknowledged.size).to.be.at.least(300);

        service = await startServiceProcess({ ...CONFIG_ENV, DATABASE_URL: db.url });
        const missing: string[] = [];
        const altered: string[] = [];
        let before: string | null = null;
        const found = new Map<string, Buffer>();
        do {
          const page = await fetch(`${service.url}/api/ledger?event=webhook%20delivery&hook=${hook.id}&limit=1000${before ? `&before=${before}` : ''}`, { headers: { 'x-sheets-key': TEST_API_KEY } });
          const body = (await page.json()) as { items: Array<{ id: string; body: string; body_encoding: string }>; next_cursor: string | null };
          for (const item of body.items) found.set(item.id, Buffer.from(item.body, item.body_encoding === 'base64' ? 'base64' : 'utf8'));
          before = body.next_cursor;
        } while (before);
        for (const [entry, bytes] of acknowledged) {
          const stored = found.get(entry);
          if (!stored) missing.push(entry);
          else if (!stored.equals(bytes)) altered.push(entry);
        }
        expect(missing, 'acknowledged but missing').to.deep.equal([]);
        expect(altered, 'stored but altered').to.deep.equal([]);
      } finally {
        await service?.child.stop();
        await db.drop();
      }
    });
  });
}
