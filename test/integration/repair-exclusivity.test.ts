// Repair exclusivity is decided by the database, not by a process: two repairs of one failure sent
// at the same instant (to two service processes on PostgreSQL, to one process on SQLite) give one
// run and one refusal naming it; the loser reaches no upstream and records nothing, and once the
// winner succeeded the lineage is closed (409 lineage_closed) for every process.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredInvocation } from '@switchyard/core';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const owner = { 'x-sheets-key': TEST_API_KEY, 'content-type': 'application/json' };
const marksIn = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Answer {
  status: number;
  body: { ok?: boolean; invocation?: StoredInvocation; error?: Record<string, unknown> };
}
const post = async (url: string, body: unknown): Promise<Answer> => {
  const res = await fetch(`${url}/api/dispatch`, { method: 'POST', headers: owner, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
};

for (const engine of engines()) {
  // SQLite is one process by design: there both repairs go to it, as before.
  const processes = engine === 'postgres' ? 2 : 1;
  describe(`repair exclusivity: two repairs of one failure at the same instant (${engine}, ${processes} process${processes > 1 ? 'es' : ''})`, function () {
    this.timeout(120_000);

    it('runs one repair; the other is refused naming it, reaches no upstream and records nothing; then the lineage is closed', async () => {
      const db = await freshDatabase(engine);
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-repair-race-'));
      const marks = join(dir, 'marks');
      const configFile = join(dir, 'config.json');
      writeFileSync(configFile, JSON.stringify({ upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: OPEN } } } }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: configFile };
      const services: Array<{ child: Child; url: string }> = [];
      try {
        for (let i = 0; i < processes; i++) services.push(await startServiceProcess(env));
        const urls = services.map((s) => s.url);
        const urlB = urls[urls.length - 1]!;

        // A failure: the label is required.
        const failure = await post(urls[0]!, { key: 'SIDE_MARK', body: {} });
        expect(failure.status).to.equal(422);
        const failed = failure.body.invocation!.id;

        // Both repairs leave at once; whichever is reserved first holds its upstream call until the
        // other has been answered, so the two overlap whatever the timing.
        const labels = ['repair-a', 'repair-b'];
        const answers = labels.map((label, i) => post(urls[i % urls.length]!, { key: 'SIDE_MARK', body: { label, hold: true }, repairs: failed }));
        const first = await Promise.race(answers.map((a, i) => a.then((answer) => ({ answer, i }))));
        expect(first.answer.status, JSON.stringify(first.answer.body)).to.equal(409);
        expect(first.answer.body.error).to.include({ code: 'repair_in_progress', repairs: failed });
        // The refused repair never reached the upstream: only the winner's mark is there.
        await until('the winning repair to reach the upstream', () => marksIn(marks).length === 1);
        const winnerIndex = 1 - first.i;
        expect(marksIn(marks)).to.deep.equal([labels[winnerIndex]]);

        writeFileSync(`${marks}.release`, '');
        const won = await answers[winnerIndex]!;
        expect(won.status, JSON.stringify(won.body)).to.equal(200);
        const winner = won.body.invocation!;
        expect(winner.repairs).to.equal(failed);
        expect(first.answer.body.error!['in_progress']).to.equal(winner.id);

        // Succeeded: the lineage is closed, from every process.
        for (const url of urls) {
          const again = await post(url, { key: 'SIDE_MARK', body: { label: 'too late' }, repairs: failed });
          expect(again.status).to.equal(409);
          expect(again.body.error).to.include({ code: 'lineage_closed', repairs: failed, closed_by: winner.id });
        }
        const read = await fetch(`${urlB}/api/invocations/${failed}`, { headers: owner });
        expect(((await read.json()) as { invocation: StoredInvocation }).invocation.repaired_by).to.deep.equal([winner.id]);
        // The ledger holds the failure and one repair; the refusals stored nothing.
        const listed = (await (await fetch(`${urlB}/api/invocations?object_id=SIDE_MARK&limit=100`, { headers: owner })).json()) as { items: StoredInvocation[] };
        expect(listed.items.map((i) => i.id).sort()).to.deep.equal([failed, winner.id].sort());
        expect(marksIn(marks)).to.deep.equal([labels[winnerIndex]]);
      } finally {
        for (const s of services) await s.child.stop();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
