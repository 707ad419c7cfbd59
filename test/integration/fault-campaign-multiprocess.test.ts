// A fault campaign: two api processes and a worker on a throwaway PostgreSQL cluster take
// deliveries (forwarded to a receiver) and runs (of an upstream that logs every call it gets) while,
// round after round, the cluster is crashed (pg_ctl -m immediate) and started again and each process
// is killed with SIGKILL and started again. Then what the sender was answered, what the receiver
// and the upstream saw, and the signed checkpoints taken meanwhile are checked against the ledger:
// no acknowledged delivery or run lost, no upstream call and no receiver hit without its record, no
// 503'd delivery stored, no answer but 2xx or 503, every pair of checkpoints consistent. The counts
// are printed; every mismatch count must be 0.
import { expect } from 'chai';
import knexFactory from 'knex';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY } from '../support/app.js';
import { MENDABLE, MISMATCH_KINDS, attemptSecond, campaignMismatches, type CampaignRecords, type LedgerDelivery, type LedgerInvocation, type ReceiverHit, type SentDelivery, type SentRun } from '../support/campaign-checks.js';
import { CheckpointLog } from '../support/checkpoints.js';
import { Fleet } from '../support/fleet.js';
import { allLedgerItems } from '../support/ledger-pages.js';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const SIDE_EFFECT = join(PROJECT_ROOT, 'test', 'support', 'side-effect-mcp-server.mjs');
const owner = { 'content-type': 'application/json', 'x-sheets-key': TEST_API_KEY };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// The campaign's bounds: rounds of faults, and the request loops' counts and pace (they also stop
// when the rounds are over). A couple of minutes in all, most of it processes starting again.
// Many requests in flight at each crash: the narrow windows (a commit that landed, its answer lost)
// are hit only by a request that is in one when the server dies.
const ROUNDS = 3;
const SENDERS = 8;
const CALLERS = 3;
const MAX_DELIVERIES = 10_000;
const MAX_RUNS = 5000;
const PAUSE_MS = 60;
const LOOPS_MS = 150_000;
/** After the rounds, how long the fleet may take to forward, sweep and integrate what is left. */
const SETTLE_MS = 30_000;


/** Reservations still in the database (runs and attempts waiting for an outcome), read as an operator would (operations.md): for the report only. */
async function openReservations(url: string): Promise<Array<{ key: string; holder: string; attempt: string | null }>> {
  const knex = knexFactory({ client: 'pg', connection: url });
  try {
    const rows = (await knex('run_reservations').select('holder', 'record')) as Array<{ holder: string; record: string }>;
    return rows.map((r) => {
      const record = JSON.parse(r.record) as LedgerInvocation;
      return { key: record.key, holder: r.holder, attempt: record.key === 'WEBHOOK_FORWARD' ? `${String(record.args?.['delivery'])}@${attemptSecond(record.created_at)}` : null };
    });
  } finally {
    await knex.destroy();
  }
}

describe('fault campaign: two api processes and a worker on a PostgreSQL cluster crashed and processes killed, round after round', function () {
  this.timeout(300_000);
  let dir: string;
  let cluster: PgCluster | undefined;
  let rx: Receiver | undefined;
  let fleet: Fleet | undefined;
  let marks: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-campaign-'));
    marks = join(dir, 'upstream-calls');
    cluster = await startPgCluster();
    rx = await startReceiver();
    // Every fifth request the destination gets fails, so retries (repairs) are part of the campaign.
    rx.answer = (_req, index) => (index % 5 === 2 ? { status: 500, body: 'try again' } : { status: 200, body: 'ok' });
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        // Short leases: a killed process's runs are swept as interrupted, and its claimed attempts taken over, within seconds.
        dispatch: { runLeaseMs: 1000 },
        webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 50, leaseMs: 4000, circuitFailures: 1000, perDestinationConcurrency: 16 } },
        ledger: { integrateIntervalMs: 100 },
        upstreams: { servers: { side: { system: 'SIDE', transport: 'stdio', command: process.execPath, args: [SIDE_EFFECT, marks], defaults: { auth: 'none', risk: 'low', approval: false } } } },
        // The plugins' simulators are not part of the campaign: each start is quicker without them.
        plugins: { edge: { enabled: false }, messaging: { enabled: false }, payments: { enabled: false }, 'web-fetch': { enabled: false } },
      }),
    );
    fleet = new Fleet({ SWITCHYARD_API_KEY: TEST_API_KEY, DATABASE_URL: cluster.url, SWITCHYARD_CONFIG: config }, { 'api-1': 'api', 'api-2': 'api', worker: 'worker' });
    // The first process migrates and pins the upstream's tool; the others find both done.
    await fleet.start('api-1');
    await Promise.all([fleet.start('api-2'), fleet.start('worker')]);
  });

  after(async () => {
    await fleet?.stopAll();
    await rx?.close();
    cluster?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing acknowledged, records every upstream call and receiver hit, stores no 503, and keeps every checkpoint consistent', async () => {
    const api = fleet!.apiUrl()!;
    const hook = ((await (await fetch(`${api}/api/objects/webhook`, { method: 'POST', headers: owner, body: JSON.stringify({ name: 'campaign' }) })).json()) as { id: string }).id;
    const dst = await fetch(`${api}/api/objects/webhook/${hook}/destinations`, { method: 'POST', headers: owner, body: JSON.stringify({ url: rx!.url(), timeout_ms: 1000, retry: { max_attempts: 10, initial_ms: 100, max_ms: 1000 } }) });
    expect(dst.status).to.equal(201);
    const verifierKey = ((await (await fetch(`${api}/api/proven-work/key`)).json()) as { verifier_key: string }).verifier_key;
    const checkpoints = new CheckpointLog(verifierKey);

    const deliveries: SentDelivery[] = [];
    const runs: SentRun[] = [];
    let running = true;
    const loopsEnd = Date.now() + LOOPS_MS;
    const goOn = () => running && Date.now() < loopsEnd;

    /** One request loop: `step` until the rounds end, the time is up or `max` requests were made in all. */
    const loop = async (made: () => number, max: number, step: (url: string) => Promise<void>): Promise<void> => {
      while (goOn() && made() < max) {
        const url = fleet!.apiUrl();
        if (url) await step(url);
        await sleep(PAUSE_MS);
      }
    };
    const answer = async (res: Response): Promise<Record<string, unknown>> => (await res.json().catch(() => ({}))) as Record<string, unknown>;
    const deliver = async (url: string): Promise<void> => {
      const sent: SentDelivery = { deliveryId: `campaign-${deliveries.length}`, status: null, entry: null };
      deliveries.push(sent);
      try {
        const res = await fetch(`${url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json', 'webhook-id': sent.deliveryId }, body: JSON.stringify({ campaign: sent.deliveryId }), signal: AbortSignal.timeout(15_000) });
        const body = await answer(res);
        sent.status = res.status;
        sent.entry = typeof body['entry'] === 'string' ? body['entry'] : null;
      } catch {
        // No answer (the process was killed mid-request): neither acknowledged nor refused.
      }
    };
    const call = async (url: string): Promise<void> => {
      const sent: SentRun = { label: `run-${runs.length}`, status: null, invocation: null };
      runs.push(sent);
      try {
        const res = await fetch(`${url}/api/dispatch`, { method: 'POST', headers: owner, body: JSON.stringify({ key: 'SIDE_MARK', body: { label: sent.label } }), signal: AbortSignal.timeout(15_000) });
        const body = await answer(res);
        sent.status = res.status;
        sent.invocation = ((body['invocation'] as { id?: string } | undefined)?.id ?? null) as string | null;
      } catch {
        // No answer.
      }
    };
    const sampleCheckpoints = async (): Promise<void> => {
      while (goOn()) {
        const url = fleet!.apiUrl();
        if (url) await checkpoints.take(url);
        await sleep(1000);
      }
    };

    let outages = 0;
    const startedAt = Date.now();
    const faults = async (): Promise<void> => {
      try {
        for (let round = 0; round < ROUNDS; round++) {
          // Each round crashes the cluster three times, and after the first two crashes kills processes:
          // one api process and the worker together (the other api process goes on taking requests),
          // then the other api process; which api process goes first alternates.
          const [first, second] = round % 2 === 0 ? ['api-1', 'api-2'] : ['api-2', 'api-1'];
          for (const killed of [[first!, 'worker'], [second!], []]) {
            await sleep(750);
            cluster!.stop('immediate');
            outages++;
            await sleep(1000);
            cluster!.start();
            await sleep(750);
            await Promise.all(killed.map((name) => fleet!.kill(name)));
            await Promise.all(killed.map((name) => fleet!.start(name)));
          }
        }
        await sleep(1500);
      } finally {
        running = false;
      }
    };

    await Promise.all([
      faults(),
      ...Array.from({ length: SENDERS }, () => loop(() => deliveries.length, MAX_DELIVERIES, deliver)),
      ...Array.from({ length: CALLERS }, () => loop(() => runs.length, MAX_RUNS, call)),
      sampleCheckpoints(),
    ]);

    const roundsEnded = Date.now();
    // Every process is up and the cluster too: what is left is forwarded, swept and integrated.
    const readRecords = async (url: string): Promise<{ records: CampaignRecords; unsettled: number }> => {
      const ledgerDeliveries = await allLedgerItems<LedgerDelivery>(url, `event=webhook%20delivery&hook=${hook}`, owner);
      const records: CampaignRecords = {
        deliveries,
        runs,
        upstreamCalls: existsSync(marks) ? readFileSync(marks, 'utf8').split('\n').filter(Boolean) : [],
        hits: rx!.received.map((r): ReceiverHit => ({ delivery: String(r.headers['webhook-id']), timestamp: Number(r.headers['webhook-timestamp']) })),
        ledgerDeliveries,
        runRecords: await allLedgerItems<LedgerInvocation>(url, 'event=invocation&key=SIDE_MARK', owner),
        attemptRecords: await allLedgerItems<LedgerInvocation>(url, 'event=invocation&key=WEBHOOK_FORWARD', owner),
      };
      const unsettled = ledgerDeliveries.filter((d) => d.forwarding.some((f) => f.state !== 'delivered' && f.state !== 'dead')).length;
      return { records, unsettled };
    };
    const settleEnd = Date.now() + SETTLE_MS;
    let read = await readRecords(fleet!.apiUrl()!);
    let lastSize = -1;
    for (;;) {
      await checkpoints.take(fleet!.apiUrl()!);
      const size = checkpoints.kept.at(-1)?.size ?? 0;
      const found = campaignMismatches(read.records, []);
      // Settled: every forwarding ended, the tree stopped growing, and nothing left that a sweep could still record.
      if ((read.unsettled === 0 && size === lastSize && MENDABLE.every((k) => found[k].length === 0)) || Date.now() > settleEnd) break;
      lastSize = size;
      await sleep(1000);
      read = await readRecords(fleet!.apiUrl()!);
    }

    const settledAt = Date.now();
    const mismatches = campaignMismatches(read.records, await checkpoints.inconsistentPairs(fleet!.apiUrl()!));
    const count = (list: Array<{ status: number | null }>, which: (s: number | null) => boolean) => list.filter((x) => which(x.status)).length;
    const ok = (s: number | null) => s !== null && s >= 200 && s < 300;
    // Attempts the ledger holds that their delivery's forwarding does not list (an attempt whose process died, or whose outcome was not written, swept as interrupted): not a mismatch, but worth seeing.
    const reserved = await openReservations(cluster!.url);
    const reservedAttempts = new Set(reserved.map((r) => r.attempt));
    const listed = new Set(read.records.ledgerDeliveries.flatMap((d) => d.forwarding.flatMap((f) => f.invocations)));
    const report = {
      seconds: { faults: Math.round((roundsEnded - startedAt) / 1000), settling: Math.round((settledAt - roundsEnded) / 1000) },
      operations: deliveries.length + runs.length + rx!.received.length,
      deliveries: { sent: deliveries.length, '2xx': count(deliveries, ok), '503': count(deliveries, (s) => s === 503), 'no answer': count(deliveries, (s) => s === null) },
      runs: { sent: runs.length, '2xx': count(runs, ok), '503': count(runs, (s) => s === 503), 'no answer': count(runs, (s) => s === null), 'upstream calls': read.records.upstreamCalls.length, interrupted: read.records.runRecords.filter((i) => i.status === 'interrupted').length },
      forwarding: { 'receiver hits': rx!.received.length, 'attempts recorded': read.records.attemptRecords.length, 'interrupted attempts': read.records.attemptRecords.filter((i) => i.status === 'interrupted').length, 'attempts outside their forwarding': read.records.attemptRecords.filter((a) => !listed.has(a.id)).length, 'deliveries not settled': read.unsettled },
      'reservations still open': { runs: reserved.filter((r) => r.key !== 'WEBHOOK_FORWARD').length, attempts: reserved.filter((r) => r.key === 'WEBHOOK_FORWARD').length, holders: new Set(reserved.map((r) => r.holder)).size, 'unrecorded hits among them': mismatches['receiver hit without a recorded attempt'].filter((h) => reservedAttempts.has(h)).length },
      checkpoints: { taken: checkpoints.kept.length, sizes: checkpoints.sizes().length },
      faults: { total: outages + [...fleet!.kills.values()].reduce((a, b) => a + b, 0), 'database crashes': outages, ...Object.fromEntries(fleet!.kills) },
      mismatches: Object.fromEntries(MISMATCH_KINDS.map((k) => [k, mismatches[k].length])),
    };
    console.log(`fault campaign: ${JSON.stringify(report, null, 2)}`);
    for (const kind of MISMATCH_KINDS) if (mismatches[kind].length) console.log(`  ${kind}: ${mismatches[kind].slice(0, 10).join('; ')}${mismatches[kind].length > 10 ? ' …' : ''}`);

    // The campaign did something: requests of each kind were answered, and every fault was injected.
    expect(report.deliveries['2xx'], 'deliveries acknowledged').to.be.above(0);
    expect(report.runs['2xx'], 'runs acknowledged').to.be.above(0);
    expect(rx!.received.length, 'forwards received').to.be.above(0);
    expect(report.faults.total).to.equal(ROUNDS * 2 * fleet!.names().length);
    expect(report.mismatches).to.deep.equal(Object.fromEntries(MISMATCH_KINDS.map((k) => [k, 0])));
  });
});
