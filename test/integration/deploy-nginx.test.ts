// The deploy kit's nginx.conf in front of a fleet, as deploy/compose.yaml runs it: Debian's nginx,
// two api processes and one worker on one PostgreSQL database. Requests are spread round-robin;
// the client rate limit holds across both api processes for the address nginx saw (its
// X-Forwarded-For, trusted because nginx is the configured proxy), whatever a client forges; a
// delivery taken through nginx is forwarded by the worker.
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { TEST_API_KEY, engines, freshDatabase } from '../support/app.js';
import { startNginx, type Nginx } from '../support/nginx.js';
import { startServiceProcess, startWorkerProcess, type Child } from '../support/processes.js';
import { eventually, startReceiver } from '../support/receiver.js';

const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };

/** A GET from a given loopback source address (nginx sees each as its own client). */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { localAddress, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The routes an api process answered, from its access log (debug lines on stdout). */
function answeredRoutes(child: Child): string[] {
  const routes: string[] = [];
  createInterface({ input: child.process.stdout! }).on('line', (line) => {
    try {
      const entry = JSON.parse(line) as { message?: string; route?: string };
      if (entry.message === 'request' && entry.route) routes.push(entry.route);
    } catch {
      // not a log line
    }
  });
  return routes;
}

if (engines().includes('postgres')) {
  describe('deploy kit: nginx (deploy/nginx.conf) in front of two api processes and a worker on PostgreSQL', function () {
    this.timeout(120_000);

    it('spreads requests over both api processes, holds one rate-limit budget per client address, and the worker forwards', async () => {
      const db = await freshDatabase('postgres');
      const rx = await startReceiver();
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-fleet-'));
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ tokens: { mintPerMinute: 10 }, webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50 } } }));
      // nginx connects from 127.0.0.1: that one address is the trusted proxy, not all of loopback.
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: join(dir, 'config.json'), SWITCHYARD_TRUSTED_PROXIES: '127.0.0.1' };
      const apis: Array<{ child: Child; url: string }> = [];
      let worker: Child | undefined;
      let nginx: Nginx | undefined;
      try {
        apis.push(...(await Promise.all([0, 1].map(() => startServiceProcess({ ...env, SWITCHYARD_ROLE: 'api', LOG_LEVEL: 'debug' })))));
        worker = await startWorkerProcess(env);
        const routes = apis.map((a) => answeredRoutes(a.child));
        nginx = await startNginx(apis.map((a) => new URL(a.url).host));
        expect(nginx.conf).to.contain('proxy_set_header X-Forwarded-For $remote_addr;');

        // Round-robin: both api processes answer (nginx's workers each keep their own turn).
        const before = routes.map((r) => r.length);
        for (let i = 0; i < 20; i++) expect(await getFrom('127.0.0.1', `${nginx.url}/healthz`)).to.equal(200);
        const healthz = routes.map((r, i) => r.slice(before[i]).filter((route) => route === '/healthz').length);
        expect(healthz[0]! + healthz[1]!).to.equal(20);
        for (const n of healthz) expect(n).to.be.within(5, 15);

        // One client (127.0.0.2 as nginx sees it) gets the budget once across both processes, even
        // while forging a new X-Forwarded-For on every request.
        const statuses: number[] = [];
        for (let wave = 0; wave < 3; wave++) {
          statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => getFrom('127.0.0.2', `${nginx!.url}/start`, { 'x-forwarded-for': `198.51.100.${wave * 10 + i}` })))));
        }
        expect(statuses.filter((s) => s !== 200 && s !== 429)).to.deep.equal([]);
        expect(statuses.filter((s) => s === 200).length).to.be.within(9, 10);
        for (const r of routes) expect(r.filter((route) => route === '/start').length, 'both processes minted or refused').to.be.greaterThan(0);
        // Another client has a budget of its own.
        expect(await getFrom('127.0.0.3', `${nginx.url}/start`)).to.equal(200);

        // A delivery taken through nginx by an api process is forwarded by the worker.
        const hook = (await (await fetch(`${nginx.url}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'through nginx' }) })).json()) as { id: string };
        const dst = await fetch(`${nginx.url}/api/objects/webhook/${hook.id}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx.url() }) });
        expect(dst.status).to.equal(201);
        const delivered = await fetch(`${nginx.url}/hook/${hook.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"through":"nginx"}' });
        expect(delivered.status).to.equal(200);
        const entry = ((await delivered.json()) as { entry: string }).entry;
        const got = await eventually(async () => rx.received.find((r) => r.headers['webhook-id'] === entry), 'the delivery forwarded by the worker');
        expect(got.body.toString()).to.equal('{"through":"nginx"}');
      } finally {
        await nginx?.stop();
        await worker?.stop();
        await Promise.all(apis.map((a) => a.child.stop()));
        await rx.close();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
