// Every mounted route declares its access where it is declared (requireMove, requireOwnerSession,
// publicRoute, a run or a verb table), read from the app's own router; and each declaration holds:
// asked with no credential, a route behaves as its declaration says.
import { expect } from 'chai';
import request from 'supertest';
import { OWNER_MOVES, PUBLIC_MOVES } from '@switchyard/core';
import { engines, startTestService, type TestService } from '../support/app.js';
import { mountedRoutes } from '../support/mounted-routes.js';
import { describeAccess, mountedRouteAccess, type RouteAccessRow } from '../support/route-access.js';

const OWNER_ONLY = new Set<string>(Object.values(OWNER_MOVES));

for (const engine of engines()) {
  describe(`HTTP faces: every route declares its access (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService;
    let rows: RouteAccessRow[];

    before(async () => {
      svc = await startTestService(engine);
      rows = mountedRouteAccess(svc.switchyard.app);
    });
    after(async () => svc?.close());

    it('lists every mounted route, each with a declared access', () => {
      expect(rows.map((r) => r.route)).to.deep.equal(mountedRoutes(svc.switchyard.app));
      const undeclared = rows.filter((r) => r.access.length === 0).map((r) => r.route);
      expect(undeclared, 'routes without a declared access').to.deep.equal([]);
      // The listing itself, for whoever reads the test's output.
      for (const r of rows) expect(r.access.map(describeAccess).join('; ')).to.be.a('string').and.not.equal('');
    });

    it('declares what each face needs: owner moves, the owner session, runs, verbs and the public routes', () => {
      const of = (route: string) => rows.find((r) => r.route === route)?.access.map(describeAccess);
      expect(of('GET /metrics')).to.deep.equal([`move ${OWNER_MOVES.readMetrics}`]);
      expect(of('GET /api/ledger')).to.deep.equal([`move ${OWNER_MOVES.readDeliveries}`]);
      expect(of('POST /api/objects/webhook')).to.deep.equal([`move ${OWNER_MOVES.manageWebhooks}`]);
      expect(of('GET /api/invocations/{id}')).to.deep.equal(['move ledger:read']);
      expect(of('GET /dashboard/webhooks')).to.deep.equal(['owner session']);
      expect(of('GET /dashboard/oauth/authorize')).to.deep.equal(['owner session']);
      for (const form of ['POST /dashboard/webhooks', 'POST /dashboard/webhooks/{id}/edit', 'POST /dashboard/webhooks/{id}/destinations', 'POST /dashboard/webhooks/{id}/destinations/{dst}/edit', 'POST /dashboard/webhooks/{id}/destinations/{dst}/switch', 'POST /dashboard/webhooks/{id}/destinations/{dst}/rotate-secret', 'POST /dashboard/forwarding/allow', 'POST /dashboard/forwarding/disallow']) expect(of(form), form).to.deep.equal(['owner session']);
      expect(of('POST /dashboard/upstreams/{name}/connect')).to.deep.equal(['owner session']);
      expect(of('POST /api/dispatch')).to.deep.equal(['run (running a capability)']);
      expect(of('POST /mcp')).to.deep.equal(['run (the MCP server)']);
      expect(of('POST /hook/{id}')![0]).to.match(/^public: the address is the secret/);
      expect(of('GET /api/dispatch')![0]).to.match(/^per verb: invoke judged by its handler, key contract:read/);
      expect(of('GET /api/dispatch')![0]).to.include(`receipt receipt:read (a delivery's receipt (dlv_…) opens a webhook's traffic: ${OWNER_MOVES.readDeliveries})`);
      expect(of('GET /api/workspace/{slug}/enter')).to.deep.equal([`move ${OWNER_MOVES.mintTokens} (when a role other than observer)`]);
    });

    it('holds each declaration: with no credential, owner routes refuse, owner pages send to sign-in, public routes answer', async () => {
      const http = request(svc.switchyard.app);
      const mismatches: string[] = [];
      for (const row of rows) {
        const [access] = row.access;
        if (!access || row.access.length > 1) continue;
        const res = await (http as unknown as Record<string, (path: string) => request.Test>)[row.method.toLowerCase()]!(row.sample);
        // A JSON answer names its code; an owner page's error page (the consent form's answer) is HTML.
        const refusedForCredential = res.status === 401 && (res.type !== 'application/json' || res.body?.error?.code === 'credential_required');
        const toSignIn = res.status === 303 && String(res.headers['location']).startsWith('/dashboard/login');
        const expected =
          access.kind === 'move' && !access.when && OWNER_ONLY.has(access.move) ? refusedForCredential
          : access.kind === 'move' && PUBLIC_MOVES.includes(access.move) ? res.status !== 401 && res.status !== 403
          : access.kind === 'owner-session' ? toSignIn || refusedForCredential
          : access.kind === 'public' ? res.status !== 401 && res.status !== 403 && !toSignIn
          : true;
        if (!expected) mismatches.push(`${row.route} (${describeAccess(access)}) answered ${res.status} ${res.body?.error?.code ?? ''}`);
      }
      expect(mismatches).to.deep.equal([]);
    });

    it('asks the access policy at /metrics: a token, which cannot carry the owner\'s move, is refused as any route refuses it', async () => {
      const http = request(svc.switchyard.app);
      const token = (await http.get('/start').expect(200)).body.token as string;
      const denied = await http.get('/metrics').set('authorization', `Bearer ${token}`).expect(403);
      expect(denied.body.error).to.include({ code: 'scope_denied', needed: OWNER_MOVES.readMetrics });
    });
  });
}

describe('HTTP faces: /metrics declared public only when config says so', function () {
  this.timeout(30_000);
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { metrics: { public: true } });
  });
  after(async () => svc?.close());

  it('is a public route, and answers without a credential', async () => {
    const row = mountedRouteAccess(svc.switchyard.app).find((r) => r.route === 'GET /metrics')!;
    expect(row.access.map((a) => a.kind)).to.deep.equal(['public']);
    await request(svc.switchyard.app).get('/metrics').expect(200);
  });
});
