// Discovery through HTTP against the real service, on each engine: ask (plain-language lookup and
// did_you_mean), build (the whole registry with its terminal key, stable across restarts) and
// router tags run through POST /api/route with the caller's credential.
import { expect } from 'chai';
import request from 'supertest';
import { createLogger, createSwitchyard, loadConfig, deepMerge } from '@switchyard/app';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';

const EDGE = 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER';
const GROUP = 'MESSAGING_UPDATE_GROUP';
const PHONES = 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS';
const PAYMENTS = 'PAYMENTS_PROCESSOR_API_SEARCH';
const WORKER = '0123456789abcdef0123456789abcdef';

for (const engine of engines()) {
  describe(`HTTP discovery: ask, build, router tags (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const invocationCount = async (key: string) => (await owner(http.get(`/api/invocations?object_id=${key}&limit=100`)).expect(200)).body.items.length as number;

    before(async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 1000 } });
      http = request(svc.switchyard.app);
    });
    after(async () => svc?.close());

    describe('ask', () => {
      const top = async (q: string) => (await http.get(`/api/dispatch?ask=${encodeURIComponent(q)}`).expect(200)).body.matches[0]?.key;

      it('finds the capability for a plain-language question, publicly, with its contract and run_now', async () => {
        expect(await top('rename a group')).to.equal(GROUP);
        expect(await top('validate some phone numbers')).to.equal(PHONES);
        expect(await top('which API operation of the payment processor lists refunds')).to.equal(PAYMENTS);
        expect(await top('make another worker the active one')).to.equal(EDGE);
        expect(await top('download a web page')).to.equal('WEB_FETCH');
        // One word a user would type: refunds are operations of a payment processor's API.
        expect(await top('refund')).to.equal(PAYMENTS);
        expect(await top('refund a customer')).to.equal(PAYMENTS);
        const body = (await http.get('/api/dispatch?ask=rename%20a%20group').expect(200)).body;
        expect(body).to.include({ ok: true, ask: 'rename a group', key_shaped: false, exact: null });
        expect(body.matches[0]).to.include({ key: GROUP, contract: `${new URL(body.registry).origin}/api/dispatch?key=${GROUP}`, 'auth · risk': 'none · low' });
        expect(body.matches[0].run_now).to.contain(`invoke=${GROUP}&body=<arg1>&share=<TOKEN>`);
        expect(body.matches[0].path).to.deep.equal(['OIP', 'MESSAGING', GROUP]);
      });

      it('runs nothing', async () => {
        const before = await invocationCount(EDGE);
        await http.get(`/api/dispatch?ask=${EDGE}`).expect(200);
        await http.get('/api/dispatch?ask=set%20the%20active%20worker').expect(200);
        expect(await invocationCount(EDGE)).to.equal(before);
      });

      it('puts a named key first and answers a key-shaped miss with did_you_mean links', async () => {
        const exact = (await http.get(`/api/dispatch?ask=${GROUP.toLowerCase()}`).expect(200)).body;
        expect(exact).to.include({ exact: GROUP, key_shaped: true });
        expect(exact.matches[0].key).to.equal(GROUP);
        expect(exact).to.not.have.property('did_you_mean');
        const miss = (await http.get('/api/dispatch?ask=MESSAGING_UPDATE_GRUP').expect(200)).body;
        expect(miss.exact).to.equal(null);
        expect(miss.did_you_mean[0].key).to.equal(GROUP);
        expect(miss.did_you_mean[0].contract).to.match(new RegExp(`/api/dispatch\\?key=${GROUP}$`));
      });

      it('answers in markdown with format=markdown and honours limit', async () => {
        const md = await http.get('/api/dispatch?ask=messaging&format=markdown').expect(200);
        expect(md.type).to.equal('text/markdown');
        expect(md.text).to.match(/^# Ask: messaging/).and.contain(`**${GROUP}**`).and.contain(`**${PHONES}**`);
        const one = (await http.get('/api/dispatch?ask=messaging&limit=1').expect(200)).body;
        expect(one.count).to.equal(1);
      });

      it('echoes the question in markdown as literal text: no link, autolink or HTML of the caller survives, and nothing is sniffed', async () => {
        const hostile = '[x](javascript:alert(1)) <script>alert(2)</script> ![i](javascript:y) <javascript:z> *b* | c';
        const md = await http.get(`/api/dispatch?ask=${encodeURIComponent(hostile)}&format=markdown`).expect(200);
        expect(md.headers['x-content-type-options']).to.equal('nosniff');
        const heading = md.text.split('\n')[0]!;
        expect(heading).to.equal('# Ask: \\[x\\](javascript:alert(1)) \\<script\\>alert(2)\\</script\\> !\\[i\\](javascript:y) \\<javascript:z\\> \\*b\\* \\| c');
        // No unescaped bracket or angle bracket anywhere the question is echoed (the did-you-mean line too).
        for (const line of md.text.split('\n').filter((l) => l.includes('javascript'))) expect(line, line).not.to.match(/(^|[^\\])[[<]/);
        // Plain-text and markdown answers of every face carry nosniff, like JSON ones.
        for (const path of ['/llms.txt', '/api/dispatch?map=EDGE&format=markdown', '/api/dispatch?key=MESSAGING_UPDATE_GROUP&format=markdown', '/articles/nope.md', '/healthz']) {
          expect((await http.get(path)).headers['x-content-type-options'], path).to.equal('nosniff');
        }
      });

      it('takes only a real host from the Host header into the links it writes', async () => {
        const md = await http.get('/api/dispatch?ask=messaging&format=markdown').set('host', 'x](javascript:alert(1))').expect(200);
        expect(md.text).not.to.contain('javascript');
        expect(md.text).to.contain('http://localhost/api/dispatch?registry=1');
        const ok = await http.get('/api/dispatch?ask=messaging&format=markdown').set('host', 'switchyard.example:8443').expect(200);
        expect(ok.text).to.contain('http://switchyard.example:8443/api/dispatch?registry=1');
      });

      it('refuses an empty, an oversized or a badly limited question with a coded error', async () => {
        for (const q of ['ask=', 'ask=%20%20', `ask=${'a'.repeat(501)}`, 'ask=group&limit=0', 'ask=group&limit=21', 'ask=group&limit=two', 'ask=a&ask=b']) {
          const res = await http.get(`/api/dispatch?${q}`).expect(400);
          expect(res.body.error.code, q).to.equal('invalid_request');
        }
      });

      it('links every unknown-key 404 to ask and did_you_mean', async () => {
        const contract = (await http.get('/api/dispatch?key=EDGE_SET_WORKER').expect(404)).body.error;
        expect(contract.code).to.equal('unknown_capability');
        expect(contract.did_you_mean[0].key).to.equal(EDGE);
        expect(contract.ask).to.match(/\/api\/dispatch\?ask=EDGE_SET_WORKER$/);
        const run = (await owner(http.post('/api/dispatch')).send({ key: 'WEB_FECTH', body: 'GET|https://example.com||' }).expect(404)).body.error;
        expect(run.did_you_mean[0].key).to.equal('WEB_FETCH');
        expect(run.ask).to.contain('ask=WEB_FECTH');
      });
    });

    describe('build', () => {
      it('answers the whole registry as one map with a sha256 terminal key', async () => {
        const build = (await http.get('/api/dispatch?build=1').expect(200)).body;
        expect(build).to.include({ ok: true, root: 'OIP', count: 5 });
        expect(build.terminal_key).to.match(/^sha256:[0-9a-f]{64}$/);
        expect(build.systems.map((s: { system: string }) => s.system)).to.deep.equal(['EDGE', 'MESSAGING', 'PAYMENTS', 'WEB']);
        const edge = build.systems[0].capabilities[0];
        expect(edge).to.include({ key: EDGE, Path: `OIP > EDGE > ${EDGE}` });
        expect(edge['From the router']).to.match(new RegExp(`^\\[${EDGE}\\]<args>\\[/${EDGE}\\] in text sent to POST .*/api/route$`));
        const md = await http.get('/api/dispatch?build=1&format=markdown').expect(200);
        expect(md.text).to.contain(`Terminal key: \`${build.terminal_key}\``).and.contain(`### ${PAYMENTS}`);
      });

      it('keeps its terminal key across a restart (new simulator ports) and changes it with the registry', async () => {
        const first = (await http.get('/api/dispatch?build=1').expect(200)).body.terminal_key;
        const config = loadConfig({ env: {}, overrides: deepMerge({ database: { url: svc.db.url }, auth: { apiKey: TEST_API_KEY }, log: { level: 'silent' }, server: { port: 0 } }, {}) });
        const again = await createSwitchyard(config, { logger: createLogger('silent') });
        try {
          expect((await request(again.app).get('/api/dispatch?build=1').expect(200)).body.terminal_key).to.equal(first);
        } finally {
          await again.close();
        }
        const fewer = await createSwitchyard(loadConfig({ env: {}, overrides: deepMerge(config as unknown as Record<string, unknown>, { plugins: { 'web-fetch': { enabled: false } } }) }), { logger: createLogger('silent') });
        try {
          const changed = (await request(fewer.app).get('/api/dispatch?build=1').expect(200)).body;
          expect(changed.count).to.equal(4);
          expect(changed.terminal_key).to.not.equal(first);
        } finally {
          await fewer.close();
        }
      });
    });

    describe('router tags (POST /api/route)', () => {
      it('runs each tag in order with the caller\'s credential, text around them ignored, every run in the ledger', async () => {
        const text = `First I switch workers: [${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}]\nthen rename [${GROUP}]{"groupId":"grp_ops","name":"Ops"}[/${GROUP}] done.`;
        const res = (await owner(http.post('/api/route')).send({ text }).expect(200)).body;
        expect(res).to.include({ count: 2 });
        expect(res.runs.map((r: { key: string }) => r.key)).to.deep.equal([EDGE, GROUP]);
        expect(res.runs[0]).to.include({ ok: true, at: 'First I switch workers: '.length });
        expect(res.runs[0].invocation).to.include({ key: EDGE, source: 'router', actor: 'owner' });
        const stored = (await owner(http.get(`/api/invocations/${res.runs[0].invocation.id}`)).expect(200)).body;
        expect(JSON.stringify(stored)).to.contain(res.runs[0].invocation.id);
      });

      it('reports unknown keys with did_you_mean and unterminated tags as problems, running neither', async () => {
        const before = await invocationCount(EDGE);
        const res = (await owner(http.post('/api/route')).send({ text: `[EDGE_SET_WORKER]{}[/EDGE_SET_WORKER] and [${EDGE}]{"workerId":"${WORKER}"}` }).expect(200)).body;
        expect(res.ok).to.equal(false);
        expect(res.runs).to.have.length(1);
        expect(res.runs[0]).to.include({ key: 'EDGE_SET_WORKER', ok: false });
        expect(res.runs[0].error.code).to.equal('unknown_capability');
        expect(res.runs[0].error.did_you_mean[0].key).to.equal(EDGE);
        expect(res.problems).to.deep.equal([{ problem: 'unterminated', key: EDGE, at: 42 }]);
        expect(await invocationCount(EDGE)).to.equal(before);
      });

      it('accepts lower-case keys and reports a failed run in its place without stopping the next', async () => {
        const res = (await owner(http.post('/api/route')).send({ text: `[${EDGE.toLowerCase()}]{"workerId":"nope"}[/${EDGE.toLowerCase()}] [${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}]` }).expect(200)).body;
        expect(res.runs.map((r: { ok: boolean }) => r.ok)).to.deep.equal([false, true]);
        expect(res.runs[0]).to.include({ key: EDGE, written_as: EDGE.toLowerCase() });
        expect(res.runs[0].invocation.error.code).to.equal('invalid_arguments');
      });

      it('holds a keyless token to its scope tag by tag', async () => {
        const t = (await http.get('/start').expect(200)).body.token as string;
        const res = (await http.post('/api/route').set('authorization', `Bearer ${t}`).send({ text: `[${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}][${PAYMENTS}]{"query":"refund"}[/${PAYMENTS}]` }).expect(200)).body;
        expect(res.runs[0].ok).to.equal(true);
        expect(res.runs[0].invocation.fingerprint).to.match(/^fp_/);
        expect(res.runs[1].ok).to.equal(false);
        expect(res.runs[1].error).to.include({ code: 'scope_denied', needed: `invoke:${PAYMENTS}` });
      });

      it('refuses no credential, a corrupted token, a bad body and too many tags, running nothing', async () => {
        const before = await invocationCount(EDGE);
        const tag = `[${EDGE}]{"workerId":"${WORKER}"}[/${EDGE}]`;
        expect((await http.post('/api/route').send({ text: tag }).expect(401)).body.error.code).to.equal('credential_required');
        expect((await http.post('/api/route').set('authorization', 'Bearer sy1.garbage').send({ text: tag }).expect(401)).body.error.code).to.equal('token_corrupted');
        expect((await owner(http.post('/api/route')).send({ txt: tag }).expect(400)).body.error.code).to.equal('invalid_request');
        expect((await owner(http.post('/api/route')).send({ text: 42 }).expect(400)).body.error.code).to.equal('invalid_request');
        expect((await owner(http.post('/api/route')).set('content-type', 'text/plain').send(tag).expect(415)).body.error.code).to.equal('unsupported_media_type');
        const many = (await owner(http.post('/api/route')).send({ text: tag.repeat(21) }).expect(400)).body.error;
        expect(many).to.include({ code: 'invalid_request', tags: 21, max: 20 });
        expect(await invocationCount(EDGE)).to.equal(before);
        const none = (await owner(http.post('/api/route')).send({ text: 'no tags here [1]' }).expect(200)).body;
        expect(none).to.deep.include({ ok: true, count: 0, runs: [], problems: [] });
      });
    });
  });
}
