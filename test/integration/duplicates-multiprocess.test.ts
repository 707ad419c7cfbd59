// Duplicates across processes: N concurrent deliveries with one delivery id, spread over several
// service processes sharing one database, give exactly one first and N-1 duplicates, all kept.
import { expect } from 'chai';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';

const PROCESSES = 3;
const DELIVERIES = 60;

for (const engine of engines()) {
  describe(`duplicates across ${PROCESSES} service processes (${engine})`, function () {
    this.timeout(90_000);

    it(`decides ${DELIVERIES} concurrent deliveries of one id: one first, the rest duplicates of it`, async function () {
      const db = await freshDatabase(engine);
      const services: Array<{ child: Child; url: string }> = [];
      try {
        // Start one first so the schema exists, then the others.
        services.push(await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url }));
        services.push(...(await Promise.all(Array.from({ length: PROCESSES - 1 }, () => startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url })))));
        const created = await fetch(`${services[0]!.url}/api/objects/webhook`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY },
          body: JSON.stringify({ name: 'race' }),
        });
        const hook = (await created.json()) as { id: string };
        const answers = await Promise.all(
          Array.from({ length: DELIVERIES }, async (_, i) => {
            const res = await fetch(`${services[i % PROCESSES]!.url}/hook/${hook.id}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'webhook-id': 'msg_same_everywhere' },
              body: JSON.stringify({ attempt: i }),
            });
            expect(res.status).to.equal(200);
            return (await res.json()) as { entry: string; duplicate: boolean; duplicate_of: string | null };
          }),
        );
        const firsts = answers.filter((a) => !a.duplicate);
        expect(firsts, 'exactly one first').to.have.length(1);
        for (const a of answers.filter((x) => x.duplicate)) expect(a.duplicate_of).to.equal(firsts[0]!.entry);
        const ledger = await fetch(`${services[1]!.url}/api/ledger?event=webhook%20delivery&hook=${hook.id}&limit=1000`, { headers: { 'x-sheets-key': TEST_API_KEY } });
        const items = ((await ledger.json()) as { items: Array<{ duplicate: boolean }> }).items;
        expect(items).to.have.length(DELIVERIES);
        expect(items.filter((d) => !d.duplicate)).to.have.length(1);
      } finally {
        await Promise.all(services.map((s) => s.child.stop()));
        await db.drop();
      }
    });
  });
}
