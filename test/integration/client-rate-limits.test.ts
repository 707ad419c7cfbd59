// Client rate limits (keyless minting, sign-in, OAuth registration and tokens): counted per client
// address, the one X-Forwarded-For names when the request comes from a proxy in
// server.trustedProxies (else the socket's); in PostgreSQL, one budget across every process.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { KnexClientRateWindows, openDatabase } from '@switchyard/storage-knex';
import { RATE_WINDOW_MS } from '@switchyard/core';
import { TEST_API_KEY, engines, freshDatabase, startTestService, type TestService } from '../support/app.js';
import { startServiceProcess, type Child } from '../support/processes.js';

for (const engine of engines()) {
  describe(`client rate limits: the client behind a trusted proxy (${engine})`, function () {
    this.timeout(30_000);
    let svc: TestService | undefined;
    afterEach(async () => {
      await svc?.close();
      svc = undefined;
    });

    it('counts each forwarded client on its own when the proxy is trusted', async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 3 }, server: { trustedProxies: ['loopback'] } });
      const http = request(svc.switchyard.app);
      const from = (client: string) => http.get('/start').set('x-forwarded-for', client);
      for (let i = 0; i < 3; i++) await from('203.0.113.5').expect(200);
      const limited = await from('203.0.113.5').expect(429);
      expect(limited.body.error).to.deep.include({ code: 'rate_limited' });
      expect(limited.body.error).to.deep.include({ limit_per_minute: 3 });
      // Another client behind the same proxy has its own budget; the proxy's hop list is read from the right.
      await from('203.0.113.6').expect(200);
      await from('198.51.100.1, 203.0.113.7').expect(200);
      await from('198.51.100.1, 203.0.113.5').expect(429);
    });

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy: one budget for its socket address', async () => {
      svc = await startTestService(engine, { tokens: { mintPerMinute: 3 } });
      const http = request(svc.switchyard.app);
      for (let i = 0; i < 3; i++) await http.get('/start').set('x-forwarded-for', `203.0.113.${i}`).expect(200);
      expect((await http.get('/start').set('x-forwarded-for', '203.0.113.99').expect(429)).body.error.code).to.equal('rate_limited');
    });
  });
}

if (engines().includes('postgres')) {
  describe('client rate limits in PostgreSQL (KnexClientRateWindows)', function () {
    this.timeout(30_000);

    it('hands out exactly the budget to requests racing on one database, then opens a new window when it ends', async () => {
      const fresh = await freshDatabase('postgres');
      const a = await openDatabase(fresh.url, { leafWorker: false });
      const b = await openDatabase(fresh.url, { leafWorker: false });
      try {
        const windows = [new KnexClientRateWindows(a.knex), new KnexClientRateWindows(b.knex)];
        const t0 = Date.now();
        const verdicts = await Promise.all(Array.from({ length: 50 }, (_, i) => windows[i % 2]!.take('mint', '203.0.113.5', 20, t0)));
        expect(verdicts.filter((v) => v.allowed)).to.have.length(20);
        expect((await windows[0]!.take('mint', '203.0.113.6', 20, t0 + 100)).allowed, 'another client').to.equal(true);
        expect((await windows[1]!.take('sign-in', '203.0.113.5', 20, t0 + 100)).allowed, 'another bucket').to.equal(true);
        const refused = await windows[1]!.take('mint', '203.0.113.5', 20, t0 + 30_000);
        expect(refused).to.deep.equal({ allowed: false, retryAfterS: 30 });
        expect(await windows[0]!.take('mint', '203.0.113.5', 20, t0 + RATE_WINDOW_MS)).to.deep.equal({ allowed: true, retryAfterS: 60 });
        // The first take after a minute sweeps the windows that ended.
        const sweeper = new KnexClientRateWindows(a.knex);
        await sweeper.take('mint', '198.51.100.1', 20, t0 + 2 * RATE_WINDOW_MS + 1);
        expect((await a.knex('client_rate_windows').select('client')).map((r: { client: string }) => r.client)).to.deep.equal(['198.51.100.1']);
      } finally {
        await a.close();
        await b.close();
        await fresh.drop();
      }
    });
  });

  describe('client rate limits across two service processes on one PostgreSQL database', function () {
    this.timeout(120_000);

    it('holds one budget for a client whichever process answers (within one request of it)', async () => {
      const db = await freshDatabase('postgres');
      const dir = mkdtempSync(join(tmpdir(), 'switchyard-limits-'));
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ tokens: { mintPerMinute: 20 } }));
      const env = { SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: db.url, SWITCHYARD_CONFIG: join(dir, 'config.json'), SWITCHYARD_TRUSTED_PROXIES: 'loopback' };
      let one: { child: Child; url: string } | undefined;
      let two: { child: Child; url: string } | undefined;
      try {
        [one, two] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
        const mint = async (url: string, client: string): Promise<number> => (await fetch(`${url}/start`, { headers: { 'x-forwarded-for': client } })).status;
        // 60 keyless mints from one client against a budget of 20, spread over both processes, 10 at a time.
        const statuses: number[] = [];
        for (let wave = 0; wave < 6; wave++) statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => mint((i % 2 ? one : two)!.url, '203.0.113.5')))));
        expect(statuses.filter((s) => s !== 200 && s !== 429), 'only 200 and 429').to.deep.equal([]);
        expect(statuses.filter((s) => s === 200).length).to.be.within(19, 20);
        // Another client behind the same proxy still has its budget, at either process.
        expect(await mint(one.url, '203.0.113.6')).to.equal(200);
        expect(await mint(two.url, '203.0.113.6')).to.equal(200);
      } finally {
        await one?.child.stop();
        await two?.child.stop();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
