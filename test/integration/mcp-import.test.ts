// Importing upstream MCP servers through the whole service, on each engine: the reference server
// (server-everything) over stdio, streamable HTTP and SSE, and a fixture whose tool list changes.
// Imported tools run through /api/dispatch into the ledger; unlisted tools need the key and the
// owner's approval; tool errors, upstream restarts, list changes and a server down at start are
// each handled without the service stopping.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { TEST_API_KEY, engines, startTestService, type TestService } from '../support/app.js';
import { EVERYTHING_BIN, LISTING_FIXTURE, childPids, freePort, killAndWait, startEverythingHttp, type EverythingHttp } from '../support/everything-server.js';

const OPEN = { auth: 'none', risk: 'low', approval: false };

for (const engine of engines()) {
  describe(`imported MCP servers (${engine})`, function () {
    this.timeout(60_000);
    let svc: TestService;
    let http: ReturnType<typeof request>;
    let everythingHttp: EverythingHttp;
    let everythingSse: EverythingHttp;
    let dir: string;
    let toolsFile: string;
    const owner = (r: request.Test) => r.set('x-sheets-key', TEST_API_KEY);
    const run = (key: string, body: unknown) => owner(http.post('/api/dispatch')).send({ key, body });
    const setListing = (names: string[]) => writeFileSync(toolsFile, JSON.stringify(names));

    before(async function () {
      process.env['MOCHA_MARKER'] = 'the service environment';
      dir = mkdtempSync(join(tmpdir(), 'switchyard-import-'));
      toolsFile = join(dir, 'tools.json');
      setListing(['alpha', 'beta', 'fail']);
      everythingHttp = await startEverythingHttp();
      everythingSse = await startEverythingHttp(undefined, 'sse');
      svc = await startTestService(engine, {
        upstreams: {
          // Generous: a stdio server started on a busy machine can take seconds; "down" is refused at once.
          connectTimeoutMs: 20_000,
          servers: {
            everything: {
              system: 'EVERYTHING',
              transport: 'stdio',
              command: process.execPath,
              args: [EVERYTHING_BIN, 'stdio'],
              tools: { echo: OPEN, 'get-sum': { auth: 'required', risk: 'low', approval: false }, 'gzip-file-as-resource': { auth: 'required', risk: 'low', approval: false } },
            },
            'everything-http': { system: 'EVERYTHING_HTTP', transport: 'streamable-http', url: everythingHttp.url, tools: { echo: OPEN } },
            'everything-sse': { system: 'EVERYTHING_SSE', transport: 'sse', url: everythingSse.url, tools: { echo: OPEN } },
            // Its tests follow a changing list, so it accepts changes (pinned, not held); holding them
            // for the owner, the default, is tested in tool-governance.http.test.ts.
            listing: { system: 'LISTING', transport: 'stdio', command: process.execPath, args: [LISTING_FIXTURE], env: { TOOLS_FILE: toolsFile }, defaults: OPEN, onChange: 'accept' },
            down: { system: 'DOWN', transport: 'streamable-http', url: `http://127.0.0.1:${await freePort()}/mcp` },
          },
        },
      });
      http = request(svc.switchyard.app);
    });
    after(async () => {
      delete process.env['MOCHA_MARKER'];
      await svc?.close();
      await everythingHttp?.stop();
      await everythingSse?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('imports server-everything over stdio: keys, path, inputs and description from tools/list', async () => {
      const { capability } = svc.switchyard.registry.require('EVERYTHING_ECHO');
      expect(capability.path).to.deep.equal(['OIP', 'EVERYTHING', 'EVERYTHING_ECHO']);
      expect(capability).to.include({ type: 'tool', runner: 'mcp:everything', tool: 'echo', auth: 'none', risk: 'low', approval: false });
      expect(capability.description).to.match(/echo/i);
      expect(capability.inputs).to.deep.include({ type: 'object', required: ['message'] });
      expect(capability.inputs).to.not.have.property('$schema');
      expect(capability.example).to.deep.equal({ message: 'example' });
      expect(capability.upstreamUrl).to.equal('stdio:everything');
      expect(svc.switchyard.registry.require('EVERYTHING_GET_SUM').capability.tool).to.equal('get-sum');
      expect(svc.switchyard.registry.has('EVERYTHING_TRIGGER_LONG_RUNNING_OPERATION')).to.equal(true);
      const contract = await http.get('/api/dispatch?key=EVERYTHING_ECHO&format=markdown').expect(200);
      expect(contract.text).to.contain('OIP > EVERYTHING > EVERYTHING_ECHO').and.contain('message');
    });

    it('runs imported tools through /api/dispatch over stdio, streamable HTTP and SSE, into the ledger', async () => {
      const echo = await run('EVERYTHING_ECHO', { message: 'hello over stdio' }).expect(200);
      expect(echo.body.result).to.equal('Echo: hello over stdio');
      expect(echo.body.invocation).to.include({ ok: true, ran: true, status: 'ok', key: 'EVERYTHING_ECHO', path: 'OIP > EVERYTHING > EVERYTHING_ECHO' });
      const sum = await run('EVERYTHING_GET_SUM', { a: 2, b: 3 }).expect(200);
      expect(sum.body.result).to.equal('The sum of 2 and 3 is 5.');
      const overHttp = await run('EVERYTHING_HTTP_ECHO', { message: 'hello over http' }).expect(200);
      expect(overHttp.body.result).to.equal('Echo: hello over http');
      expect(svc.switchyard.registry.require('EVERYTHING_HTTP_ECHO').capability.upstreamUrl).to.equal(everythingHttp.url);
      const overSse = await run('EVERYTHING_SSE_ECHO', { message: 'hello over sse' }).expect(200);
      expect(overSse.body.result).to.equal('Echo: hello over sse');
      const ledger = await owner(http.get('/api/invocations?object_id=EVERYTHING_ECHO')).expect(200);
      expect(ledger.body.items.map((i: { id: string }) => i.id)).to.include(echo.body.invocation.id);
      // Our strict schema check runs before the upstream: a missing argument never reaches it.
      const bad = await run('EVERYTHING_ECHO', {}).expect(422);
      expect(bad.body.invocation).to.include({ ran: false, status: 'failed' });
      expect(bad.body.invocation.error.code).to.equal('invalid_arguments');
    });

    it('gives tools config does not list auth required, risk high and approval', async () => {
      const { capability } = svc.switchyard.registry.require('EVERYTHING_GET_ENV');
      expect(capability).to.include({ auth: 'required', risk: 'high', approval: true });
      const start = (await http.get('/start').expect(200)).body.token as string;
      // A keyless token is cut from the auth-none set: it may run echo (config says none) and not get-env.
      const keyless = await http.post('/api/dispatch').set('authorization', `Bearer ${start}`).send({ key: 'EVERYTHING_GET_ENV', body: {} }).expect(403);
      expect(keyless.body.error).to.include({ code: 'scope_denied' });
      const open = await http.post('/api/dispatch').set('authorization', `Bearer ${start}`).send({ key: 'EVERYTHING_ECHO', body: { message: 'keyless' } }).expect(200);
      expect(open.body.result).to.equal('Echo: keyless');
      const waits = await run('EVERYTHING_GET_ENV', {}).expect(202);
      expect(waits.body.invocation).to.include({ status: 'awaiting_approval', ran: false });
      expect(waits.body.invocation.error.code).to.equal('approval_required');
      // Approved, it runs: get-env shows the stdio child got a minimal environment, not ours.
      const approved = await owner(http.post(`/api/approvals/${waits.body.invocation.id}`)).send({ decision: 'approve' }).expect(200);
      expect(approved.body.invocation).to.include({ ok: true, ran: true, key: 'EVERYTHING_GET_ENV' });
      expect(approved.body.result).to.have.property('PATH');
      expect(approved.body.result).to.not.have.property('SWITCHYARD_TEST_PG_URL');
      expect(approved.body.result).to.not.have.property('MOCHA_MARKER');
    });

    it('records a tool error as a failed invocation (tool_error) and keeps serving', async () => {
      const failed = await run('EVERYTHING_GZIP_FILE_AS_RESOURCE', { name: 'x.gz', data: 'ftp://example.invalid/x' }).expect(422);
      expect(failed.body.invocation).to.include({ ok: false, ran: true, status: 'failed' });
      expect(failed.body.invocation.error.code).to.equal('tool_error');
      expect(failed.body.invocation.error.message).to.match(/protocol/i);
      const fixture = await run('LISTING_FAIL', { text: 'x' }).expect(422);
      expect(fixture.body.invocation.error.message).to.contain('this tool always fails');
      await run('EVERYTHING_ECHO', { message: 'still here' }).expect(200);
    });

    it('starts the stdio server again after it exits: the next call works', async () => {
      const before = childPids(`${EVERYTHING_BIN} stdio`);
      expect(before).to.have.length(1);
      await killAndWait(before[0]!);
      const again = await run('EVERYTHING_ECHO', { message: 'after restart' }).expect(200);
      expect(again.body.result).to.equal('Echo: after restart');
      const after = childPids(`${EVERYTHING_BIN} stdio`);
      expect(after).to.have.length(1);
      expect(after[0]).to.not.equal(before[0]);
    });

    it('answers upstream_unavailable while the HTTP server is down (ledgered) and works once it is back', async () => {
      const port = everythingHttp.port;
      await everythingHttp.stop();
      const down = await run('EVERYTHING_HTTP_ECHO', { message: 'anyone?' }).expect(502);
      expect(down.body.invocation).to.include({ ok: false, status: 'failed' });
      expect(down.body.invocation.error.code).to.equal('upstream_unavailable');
      const ledger = await owner(http.get('/api/invocations?object_id=EVERYTHING_HTTP_ECHO')).expect(200);
      expect(ledger.body.items.map((i: { id: string }) => i.id)).to.include(down.body.invocation.id);
      everythingHttp = await startEverythingHttp(port);
      const back = await run('EVERYTHING_HTTP_ECHO', { message: 'back' }).expect(200);
      expect(back.body.result).to.equal('Echo: back');
    });

    it('follows a changed tool list on refresh: a removed key answers 404 with did_you_mean, its ledger stays', async () => {
      // The fixture pages two tools at a time: all three arrived.
      expect(svc.switchyard.registry.list().filter((c) => c.system === 'LISTING').map((c) => c.key)).to.deep.equal(['LISTING_ALPHA', 'LISTING_BETA', 'LISTING_FAIL']);
      const ran = await run('LISTING_ALPHA', { text: 'before' }).expect(200);
      expect(ran.body.result).to.deep.include({ tool: 'alpha', args: { text: 'before' } });
      setListing(['beta', 'fail', 'gamma-ray']);
      const change = await owner(http.post('/api/upstreams/listing/refresh')).expect(200);
      expect(change.body).to.deep.include({ ok: true, server: 'listing', system: 'LISTING', added: ['LISTING_GAMMA_RAY'], removed: ['LISTING_ALPHA'], count: 3 });
      const gone = await run('LISTING_ALPHA', { text: 'after' }).expect(404);
      expect(gone.body.error.code).to.equal('unknown_capability');
      expect(gone.body.error.did_you_mean).to.be.an('array').that.is.not.empty;
      expect(gone.body).to.not.have.property('invocation');
      const ledger = await owner(http.get('/api/invocations?object_id=LISTING_ALPHA')).expect(200);
      expect(ledger.body.items.map((i: { id: string }) => i.id)).to.deep.equal([ran.body.invocation.id]);
      // Every view of the registry follows: the whole registry, the system's map, the ask lookup.
      const registry = (await http.get('/api/dispatch?registry=1').expect(200)).body.capabilities.map((c: { key: string }) => c.key);
      expect(registry).to.include('LISTING_GAMMA_RAY').and.not.include('LISTING_ALPHA');
      const map = (await http.get('/api/dispatch?map=LISTING').expect(200)).body.capabilities.map((c: { key: string }) => c.key);
      expect(map).to.deep.equal(['LISTING_BETA', 'LISTING_FAIL', 'LISTING_GAMMA_RAY']);
      const gamma = await run('LISTING_GAMMA_RAY', { text: 'new' }).expect(200);
      expect(gamma.body.result).to.deep.include({ tool: 'gamma-ray' });
    });

    it('imports again by itself when the server says its tool list changed', async () => {
      setListing(['beta', 'fail', 'notify']);
      await owner(http.post('/api/upstreams/listing/refresh')).expect(200);
      setListing(['beta', 'fail', 'notify', 'delta']);
      await run('LISTING_NOTIFY', { text: 'x' }).expect(200);
      for (let i = 0; i < 100 && !svc.switchyard.registry.has('LISTING_DELTA'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(svc.switchyard.registry.has('LISTING_DELTA')).to.equal(true);
    });

    it('keeps serving when a server is down at start: listed as error with nothing imported; refresh answers 502', async () => {
      const { items } = (await owner(http.get('/api/upstreams')).expect(200)).body;
      const down = items.find((u: { name: string }) => u.name === 'down');
      expect(down).to.include({ system: 'DOWN', status: 'error', tools: 0, transport: 'streamable-http' });
      expect(down.last_error.code).to.equal('upstream_unavailable');
      const everything = items.find((u: { name: string }) => u.name === 'everything');
      expect(everything).to.include({ status: 'ok', transport: 'stdio', system: 'EVERYTHING' });
      expect(everything.tools).to.be.greaterThan(5);
      expect(everything.last_refresh).to.be.a('string');
      const retry = await owner(http.post('/api/upstreams/down/refresh')).expect(502);
      expect(retry.body.error.code).to.equal('upstream_unavailable');
      expect(svc.switchyard.registry.list().some((c) => c.system === 'DOWN')).to.equal(false);
    });

    it('lets only the owner list and refresh upstreams; an unknown name is 404 upstream_not_found', async () => {
      expect((await http.get('/api/upstreams').expect(401)).body.error.code).to.equal('credential_required');
      const start = (await http.get('/start').expect(200)).body.token as string;
      const denied = await http.post('/api/upstreams/listing/refresh').set('authorization', `Bearer ${start}`).expect(403);
      expect(denied.body.error).to.include({ code: 'scope_denied', needed: 'upstream:manage' });
      const unknown = await owner(http.post('/api/upstreams/nope/refresh')).expect(404);
      expect(unknown.body.error.code).to.equal('upstream_not_found');
      expect(unknown.body.error.upstreams).to.include('everything');
    });
  });
}
