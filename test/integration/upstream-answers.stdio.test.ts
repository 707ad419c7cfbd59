// Upstream answers over stdio, through the whole service against real MCP server children
// (test/support/answer-stdio-server.mjs) of both eras (2025 on the v1 SDK, 2026-07-28 on the v2):
// an answer line past dispatch.maxResultBytes is dropped as it arrives and fails its run
// upstream_answer_too_large, ledgered with a small record; the same child answers the next call.
// On each engine; and a 30 MB answer to a service process, whose peak resident memory is read from /proc.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, freshDatabase, startTestService, type TestService } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';
import { answerSizeProbe } from '../support/service-memory.js';

const FIXTURE = join(PROJECT_ROOT, 'test', 'support', 'answer-stdio-server.mjs');
const OPEN = { auth: 'none', risk: 'low', approval: false };
const ERAS = ['legacy', 'modern'] as const;
type Era = (typeof ERAS)[number];

const upstream = (era: Era) => ({ system: `STDIO_${era.toUpperCase()}`, transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { ANSWER_ERA: era }, defaults: OPEN });

for (const engine of engines()) {
  describe(`upstream answers over stdio: too large (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const run = (key: string, body: unknown) => http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key, body });

    before(async () => {
      svc = await startTestService(engine, {
        dispatch: { timeoutMs: 60_000, maxResultBytes: 1_000_000 },
        upstreams: { servers: Object.fromEntries(ERAS.map((era) => [`stdio-${era}`, upstream(era)])) },
      });
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    for (const era of ERAS) {
      const SYSTEM = `STDIO_${era.toUpperCase()}`;

      it(`runs an answer under dispatch.maxResultBytes whole (${era})`, async () => {
        const res = await run(`${SYSTEM}_BIG`, { bytes: 900_000 }).expect(200);
        expect(res.body.result).to.have.length(900_000);
      });

      it(`fails an answer past dispatch.maxResultBytes as 502 upstream_answer_too_large, ledgered with a small record, and the same child answers the next call (${era})`, async () => {
        const pid = (await run(`${SYSTEM}_PID`, {}).expect(200)).body.result;
        const res = await run(`${SYSTEM}_BIG`, { bytes: 5_000_000 }).expect(502);
        expect(res.body.error).to.include({ code: 'upstream_answer_too_large', max_bytes: 1_000_000, tool: 'big' });
        expect(res.body.invocation).to.include({ ok: false, ran: true, status: 'failed', result: null });
        const stored = await http.get(`/api/invocations/${res.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(stored.body.invocation.error.code).to.equal('upstream_answer_too_large');
        expect(JSON.stringify(stored.body.invocation).length).to.be.below(4000);
        expect((await run(`${SYSTEM}_BIG`, { bytes: 10 }).expect(200)).body.result).to.equal('x'.repeat(10));
        expect((await run(`${SYSTEM}_PID`, {}).expect(200)).body.result).to.equal(pid);
      });
    }
  });
}

describe('upstream answers over stdio: a 30 MB answer to a service process (default dispatch.maxResultBytes, 8 MiB)', function () {
  this.timeout(120_000);
  for (const era of ERAS) {
    it(`holds no more than the bound: the run fails upstream_answer_too_large, its record is small, peak memory does not follow the answer's size, and the next call runs (${era})`, async () => {
      const db = await freshDatabase('sqlite');
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-answers-'));
      let service: { child: Child; url: string } | undefined;
      try {
        const config = join(dir, 'config.json');
        writeFileSync(config, JSON.stringify({ upstreams: { servers: { answers: { ...upstream(era), system: 'ANSWERS' } } }, dispatch: { timeoutMs: 60_000 } }));
        service = await startServiceProcess({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: config });
        const { dispatch, warm, grewBy } = answerSizeProbe(service.url, service.child.process.pid!, TEST_API_KEY, expect);
        await warm();
        const first = await grewBy(30_000_000);
        const second = await grewBy(90_000_000);
        expect((await dispatch(1000)).status).to.equal(200);
        console.log(`      peak RSS +${first.toFixed(1)} MB for a 30 MB answer, then +${second.toFixed(1)} MB for a 90 MB one (stdio, ${era})`);
        // At most the 8 MiB bound is held while a line is read, dropped once it is passed. On Node
        // 22 and 24 each chunk read past it is freed at once (measured +7 to +13 MB for both
        // answers; before, +39 to +57 for the 90 MB one on Node 24); on Node 20, which cannot free
        // one, they wait for the collector (+29 to +31 MB, then +4 to +6): the bar is 6 times the bound.
        for (const grew of [first, second]) expect(grew).to.be.below(6 * 8.4);
      } finally {
        await service?.child.stop();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
