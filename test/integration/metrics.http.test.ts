// Metrics through HTTP against the real app and storage, on SQLite and (in CI) PostgreSQL: who may
// read /metrics, what the counters say after runs and deliveries, the route-pattern labels, the
// body bytes in flight, and the ledger backlog.
import { expect } from 'chai';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { VerifiableLedger } from '@switchyard/core';
import { TEST_API_KEY, engines, startTestService, type TestService, startListeningService, type ListeningService } from '../support/app.js';
import { rawPost as post } from '../support/raw-post.js';
import { parseExposition, samplesOf, valueOf, type Sample } from '../support/prometheus.js';

const HTTP = 'switchyard_http_request_duration_seconds_count';

for (const engine of engines()) {
  describe(`HTTP metrics (${engine})`, function () {
    let svc: ListeningService;
    let http: ReturnType<typeof request>;
    let server: Server;
    let hookId: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const scrape = async (): Promise<Sample[]> => parseExposition((await owner(http.get('/metrics')).expect(200)).text);
    /** The value of a counter or histogram sample, 0 before its first event. */
    const count = (samples: Sample[], name: string, labels: Record<string, string>) => valueOf(samples, name, labels) ?? 0;
    const total = (samples: Sample[], name: string, labels: Record<string, string>) => samplesOf(samples, name, labels).reduce((sum, s) => sum + s.value, 0);

    before(async function () {
      svc = await startListeningService(engine);
      http = request(svc.switchyard.app);
      server = svc.server;
      hookId = (await owner(http.post('/api/objects/webhook')).send({ name: 'metrics' }).expect(201)).body.id;
    });
    after(async () => {
      await svc?.close();
    });

    describe('GET /metrics', () => {
      it('needs the owner\'s API key: none is credential_required, a wrong one invalid_api_key', async () => {
        const none = await http.get('/metrics').expect(401);
        expect(none.body.error.code).to.equal('credential_required');
        const wrong = await http.get('/metrics').set('x-sheets-key', 'sy_not_a_key').expect(401);
        expect(wrong.body.error.code).to.equal('invalid_api_key');
      });

      it('counts requests turned away by reason, and not mistakes such as an unknown route', async () => {
        const refusals = (samples: Sample[], reason: string) => count(samples, 'switchyard_refusals_total', { kind: 'request', reason });
        const before = await scrape();
        await http.get('/metrics').expect(401);
        await http.get('/api/objects/webhook').set('x-sheets-key', 'sy_not_a_key').expect(401);
        await http.get('/no/such/route').expect(404);
        const after = await scrape();
        expect(refusals(after, 'credential_required') - refusals(before, 'credential_required')).to.equal(1);
        expect(refusals(after, 'invalid_api_key') - refusals(before, 'invalid_api_key')).to.equal(1);
        expect(refusals(after, 'not_found') - refusals(before, 'not_found')).to.equal(0);
      });

      it('answers the Prometheus text format with the process metrics', async () => {
        const res = await owner(http.get('/metrics')).expect(200);
        expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
        const samples = parseExposition(res.text);
        expect(valueOf(samples, 'process_cpu_user_seconds_total')).to.be.a('number').at.least(0);
        expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
        expect(res.text).to.include('# TYPE switchyard_http_request_duration_seconds histogram');
        // Outcomes exist from the start, so a rate over them does not wait for the first event.
        for (const outcome of ['accepted', 'duplicate', 'refused']) expect(valueOf(samples, 'switchyard_deliveries_total', { outcome }), outcome).to.be.a('number');
      });

      it('counts runs by key and status, their upstream calls, and times them by route pattern', async () => {
        const before = await scrape();
        await owner(http.post('/api/dispatch')).send({ key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', body: { numbers: ['+14155552671'] } }).expect(200);
        await owner(http.post('/api/dispatch')).send({ key: 'MESSAGING_UPDATE_GROUP', body: { group_id: 'grp_doesnotexist', name: 'x' } }).expect(422);
        const after = await scrape();
        const runs = (key: string, status: string) => count(after, 'switchyard_runs_total', { key, status }) - count(before, 'switchyard_runs_total', { key, status });
        expect(runs('MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS', 'ok')).to.equal(1);
        expect(runs('MESSAGING_UPDATE_GROUP', 'failed')).to.equal(1);
        expect(runs('MESSAGING_UPDATE_GROUP', 'ok')).to.equal(0);
        // Each run made one tool call upstream; one answered, the other answered an error.
        const calls = (outcome: string) => total(after, 'switchyard_upstream_call_duration_seconds_count', { outcome }) - total(before, 'switchyard_upstream_call_duration_seconds_count', { outcome });
        expect(calls('ok') + calls('tool_error') + calls('failed')).to.equal(2);
        expect(calls('ok')).to.be.at.least(1);
        const timed = (status: string) => count(after, HTTP, { method: 'POST', route: '/api/dispatch', status }) - count(before, HTTP, { method: 'POST', route: '/api/dispatch', status });
        expect(timed('200')).to.equal(1);
        expect(timed('422')).to.equal(1);
      });

      it('counts a refused run once as a run refusal, its delivery as a refused delivery, and not again as a refused request', async () => {
        const before = await scrape();
        // A hook action runs as a keyless caller; this capability needs auth.
        const res = await post(server, `/hook/${hookId}/PAYMENTS_PROCESSOR_API_SEARCH`, { 'content-type': 'application/json' }, Buffer.from('{"query":"refund"}'));
        expect(res.status).to.equal(401);
        expect(res.body.invocation).to.include({ status: 'refused', ran: false });
        const after = await scrape();
        const diff = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
        expect(diff('switchyard_runs_total', { key: 'PAYMENTS_PROCESSOR_API_SEARCH', status: 'refused' })).to.equal(1);
        expect(diff('switchyard_refusals_total', { kind: 'run', reason: 'credential_required' })).to.equal(1);
        expect(diff('switchyard_refusals_total', { kind: 'request', reason: 'credential_required' })).to.equal(0);
        // A delivery whose action is refused is itself refused, for the same reason.
        expect(diff('switchyard_deliveries_total', { outcome: 'refused' }), 'the delivery is refused with its action').to.equal(1);
        expect(diff('switchyard_deliveries_total', { outcome: 'accepted' })).to.equal(0);
        expect(diff('switchyard_refusals_total', { kind: 'delivery', reason: 'credential_required' })).to.equal(1);
      });

      it('counts deliveries by outcome, refusals by reason and the group commits that stored them, labelled by route pattern only', async () => {
        const before = await scrape();
        const headers = { 'content-type': 'application/json', 'x-github-delivery': 'gh-metrics-1' };
        expect((await post(server, `/hook/${hookId}`, headers, Buffer.from('{"n":1}'))).status).to.equal(200);
        expect((await post(server, `/hook/${hookId}`, headers, Buffer.from('{"n":1}'))).body.duplicate).to.equal(true);
        expect((await post(server, `/hook/${hookId}/NO_SUCH_CAPABILITY`, headers, Buffer.from('{}'))).status).to.equal(404);
        const after = await scrape();
        const diff = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
        expect(diff('switchyard_deliveries_total', { outcome: 'accepted' })).to.equal(1);
        expect(diff('switchyard_deliveries_total', { outcome: 'duplicate' })).to.equal(1);
        expect(diff('switchyard_deliveries_total', { outcome: 'refused' })).to.equal(1);
        expect(diff('switchyard_refusals_total', { kind: 'delivery', reason: 'unknown_capability' })).to.equal(1);
        // All three went in through group commits, none by the fallback.
        expect(diff('switchyard_group_commit_batch_size_sum', { store: 'deliveries' })).to.equal(3);
        expect(diff('switchyard_group_commit_fallbacks_total', { store: 'deliveries' })).to.equal(0);
        expect(diff(HTTP, { method: 'POST', route: '/hook/:id', status: '200' })).to.equal(2);
        expect(diff(HTTP, { method: 'POST', route: '/hook/:id/:action', status: '404' })).to.equal(1);
        // A webhook's address is a secret, and raw paths would make labels unbounded.
        const text = (await owner(http.get('/metrics')).expect(200)).text;
        expect(text).not.to.include(hookId);
        expect(text).not.to.include('NO_SUCH_CAPABILITY');
      });

      it('labels requests no route matched as one route', async () => {
        const before = await scrape();
        await http.get('/no/such/route/4711').expect(404);
        await http.get('/no/such/route/4712').expect(404);
        const after = await scrape();
        expect(count(after, HTTP, { method: 'GET', route: '(unmatched)', status: '404' }) - count(before, HTTP, { method: 'GET', route: '(unmatched)', status: '404' })).to.equal(2);
        expect(samplesOf(after, HTTP).some((s) => s.labels['route']!.includes('4711'))).to.equal(false);
      });

      it('shows the body bytes read and not yet answered, and none once answered', async () => {
        const { port } = server.address() as AddressInfo;
        const first = Buffer.alloc(40_000, 'a');
        const rest = Buffer.alloc(24_000, 'b');
        const req = httpRequest({ host: '127.0.0.1', port, path: `/hook/${hookId}`, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(first.length + rest.length) } });
        const answer = new Promise<number>((resolve, reject) => {
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          });
          req.on('error', reject);
        });
        req.write(first);
        const gauge = async () => valueOf(await scrape(), 'switchyard_http_request_body_bytes_in_flight')!;
        // The first part is read as it arrives; wait (bounded) for the reader to have it.
        let seen = await gauge();
        for (let i = 0; i < 200 && seen < first.length; i++) {
          await new Promise((r) => setTimeout(r, 20));
          seen = await gauge();
        }
        expect(seen, 'the part sent so far is in flight').to.be.at.least(first.length).and.below(first.length + rest.length);
        req.end(rest);
        expect(await answer).to.equal(200);
        let left = await gauge();
        for (let i = 0; i < 200 && left !== 0; i++) {
          await new Promise((r) => setTimeout(r, 20));
          left = await gauge();
        }
        expect(left, 'released once the answer is sent').to.equal(0);
      });
    });
  });

  describe(`HTTP metrics by config (${engine})`, function () {
    it('serves /metrics without a key when metrics.public is true', async () => {
      const svc = await startTestService(engine, { metrics: { public: true } });
      try {
        const res = await request(svc.switchyard.app).get('/metrics').expect(200);
        const samples = parseExposition(res.text);
        expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
        // Its own registry: the runs of the other service in this process are not here.
        expect(samplesOf(samples, 'switchyard_runs_total')).to.have.length(0);
      } finally {
        await svc.close();
      }
    });

    it('shows the ledger backlog and how long its oldest entry has waited, both 0 once integrated', async () => {
      // The integrator's timer is far off: the test integrates itself.
      const svc = await startTestService(engine, { ledger: { integrateIntervalMs: 60_000 } });
      try {
        const http = request(svc.switchyard.app);
        const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
        const scrape = async () => parseExposition((await owner(http.get('/metrics')).expect(200)).text);
        const ledger = svc.switchyard.container.get<VerifiableLedger>(VerifiableLedger);
        await ledger.integrate(10_000);
        const empty = await scrape();
        expect(valueOf(empty, 'switchyard_ledger_backlog_entries')).to.equal(0);
        expect(valueOf(empty, 'switchyard_ledger_integration_lag_seconds')).to.equal(0);
        const hook = (await owner(http.post('/api/objects/webhook')).send({ name: 'backlog' }).expect(201)).body.id as string;
        for (let i = 0; i < 3; i++) await http.post(`/hook/${hook}`).set('content-type', 'application/json').send({ i }).expect(200);
        const queued = await scrape();
        expect(valueOf(queued, 'switchyard_ledger_backlog_entries')).to.equal(3);
        expect(valueOf(queued, 'switchyard_ledger_integration_lag_seconds')).to.be.at.least(0).and.below(3600);
        await ledger.integrate(10_000);
        const done = await scrape();
        expect(valueOf(done, 'switchyard_ledger_backlog_entries')).to.equal(0);
        expect(valueOf(done, 'switchyard_ledger_integration_lag_seconds')).to.equal(0);
      } finally {
        await svc.close();
      }
    });
  });
}
