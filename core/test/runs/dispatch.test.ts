import { expect } from 'chai';
import { CapabilityRegistry, DispatchService, OWNER, argsHash, RunnerDirectory, SwitchyardError, callerOf, mintToken, repairInFlight, verifyToken, type Caller, type CapabilityRunner, type RunReservations } from '../../src/index.js';
import { MemoryInvocationStore } from '@switchyard/plugin-kit/testing';
import { echoCapability, echoRunner, guardedCapability, ownerOnlyCapability } from '../fixtures.js';

const ROOT = { kid: 't', secret: new Uint8Array(32).fill(7) };
/** A keyless token's caller, as the access policy builds it. */
const tokenCaller = (id: string, caveats: { keys?: string[]; actor?: string } = {}): Caller =>
  callerOf({ kind: 'token', scope: verifyToken(mintToken(ROOT, { moves: ['invoke:*'], ...caveats }, id), [ROOT], 0) });
const keyless: Caller = tokenCaller('k_test', { actor: 'agent' });

function setup(runner: CapabilityRunner = echoRunner) {
  const registry = new CapabilityRegistry();
  const runners = new RunnerDirectory();
  for (const def of [echoCapability, guardedCapability, ownerOnlyCapability]) {
    registry.register(def);
    runners.assign(def.key, runner);
  }
  const store = new MemoryInvocationStore();
  let t = 0;
  const clock = { now: () => new Date(Date.UTC(2026, 0, 1) + (t += 7)) };
  return { store, dispatch: new DispatchService(registry, runners, store, clock, { timeoutMs: 1000 }) };
}

describe('core: dispatch', () => {
  it('runs, applies schema defaults and ledgers an ok invocation', async () => {
    const { dispatch, store } = setup();
    const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"hi"}' }, OWNER);
    expect(invocation).to.include({ key: 'TEST_ECHO', ok: true, ran: true, status: 'ok', actor: 'owner', body: '{"text":"hi"}', repairs: null, replays: null, source: 'api' });
    expect(invocation.id).to.match(/^inv_[A-Za-z0-9]{20}$/);
    expect(invocation.args).to.deep.equal({ text: 'hi', n: 5 });
    expect(invocation.result).to.deep.equal({ echoed: { text: 'hi', n: 5 } });
    expect(invocation.path).to.equal('OIP > TEST > TEST_ECHO');
    expect(invocation.duration_ms).to.equal(7);
    expect(await store.get(invocation.id)).to.deep.include({ id: invocation.id, seq: 1 });
  });

  it('records the request id its scope names, and null outside a request', async () => {
    const { dispatch: unscoped } = setup();
    expect((await unscoped.dispatch({ key: 'TEST_ECHO', body: { text: 'x' } }, OWNER)).invocation.request_id).to.equal(null);
    const registry = new CapabilityRegistry();
    const runners = new RunnerDirectory();
    registry.register(echoCapability);
    runners.assign(echoCapability.key, echoRunner);
    let current: string | null = 'req-one';
    const scoped = new DispatchService(registry, runners, new MemoryInvocationStore(), { now: () => new Date() }, { timeoutMs: 1000 }, { requestId: () => current });
    expect((await scoped.dispatch({ key: 'TEST_ECHO', body: { text: 'x' } }, OWNER)).invocation.request_id).to.equal('req-one');
    current = 'req-two';
    expect((await scoped.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation).to.include({ ok: false, request_id: 'req-two' });
  });

  it('gives every invocation a different random id', async () => {
    const { dispatch } = setup();
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await dispatch.dispatch({ key: 'TEST_ECHO', body: { text: 'x' } }, OWNER)).invocation.id);
    expect(ids.size).to.equal(50);
  });

  it('throws unknown_capability for an unknown key and ledgers nothing', async () => {
    const { dispatch, store } = setup();
    try {
      await dispatch.dispatch({ key: 'TEST_ECH', body: '{}' }, OWNER);
      expect.fail('should throw');
    } catch (err) {
      expect(SwitchyardError.is(err, 'unknown_capability')).to.equal(true);
    }
    expect((await store.list({ key: 'TEST_ECH', order: 'append', cursor: null, limit: 10 })).items).to.have.length(0);
  });

  const invalid: [string, unknown][] = [
    ['missing required', '{}'],
    ['wrong type', '{"text": 5}'],
    ['extra property', '{"text":"a","extra":1}'],
    ['above maximum', '{"text":"a","n":21}'],
    ['not JSON', '{"text":'],
    ['a number body', 42],
  ];
  for (const [name, body] of invalid) {
    it(`ledgers ${name} as a failed invocation with invalid_arguments, ran false`, async () => {
      const { dispatch } = setup();
      const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body }, OWNER);
      expect(invocation).to.include({ ok: false, ran: false, status: 'failed' });
      expect(invocation.error?.code).to.equal('invalid_arguments');
      expect(invocation.error?.['errors']).to.be.an('array').that.is.not.empty;
      expect(invocation.yield.waste.bytes).to.be.greaterThan(0);
      expect(invocation.yield.cost).to.equal(0);
    });
  }

  it('refuses arguments nested past the depth limit as invalid_arguments, ledgered without them', async () => {
    const { dispatch } = setup();
    const text = `{"text":"a","deep":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const body of [text, JSON.parse(text)]) {
      const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body }, OWNER);
      expect(invocation).to.include({ ok: false, ran: false, status: 'failed', args: null, body: text });
      expect(invocation.error).to.include({ code: 'invalid_arguments', max_depth: 64 });
    }
  });

  it('fails a run whose result nests past the depth limit as tool_error, without the result', async () => {
    const { dispatch } = setup({ run: async () => JSON.parse(`{"r":${'['.repeat(5000)}${']'.repeat(5000)}}`) });
    const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body: { text: 'a' } }, OWNER);
    expect(invocation).to.include({ ok: false, ran: true, status: 'failed', result: null });
    expect(invocation.error).to.include({ code: 'tool_error', max_depth: 64 });
  });

  it('holds approval-required runs as awaiting_approval, bound to the hash of their exact arguments', async () => {
    let ran = 0;
    const { dispatch } = setup({ run: async () => (ran++, { done: true }) });
    const { invocation } = await dispatch.dispatch({ key: 'TEST_GUARDED', body: { text: 'a' } }, OWNER);
    expect(invocation).to.include({ ok: false, ran: false, status: 'awaiting_approval' });
    expect(invocation.error).to.include({ code: 'approval_required', args_hash: argsHash(invocation.args) });
    expect(ran).to.equal(0);
    // Approved: runs once, as a new invocation naming the approval, with the same arguments.
    const run = await dispatch.runApproved(invocation, { id: 'apr_1', args_hash: argsHash(invocation.args) });
    expect(run.invocation).to.include({ ok: true, ran: true, status: 'ok', source: 'approval:apr_1', actor: invocation.actor });
    expect(ran).to.equal(1);
    // An approval of other arguments runs nothing.
    let error: unknown;
    try {
      await dispatch.runApproved(invocation, { id: 'apr_2', args_hash: argsHash({ text: 'b' }) });
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string }).code).to.equal('invalid_request');
    expect(ran).to.equal(1);
  });

  it('refuses auth-required capabilities to a keyless caller, ledgered under its fingerprint', async () => {
    const { dispatch } = setup();
    const { invocation } = await dispatch.dispatch({ key: 'TEST_OWNER_ONLY', body: { text: 'a' } }, keyless);
    expect(invocation).to.include({ status: 'refused', ran: false, fingerprint: keyless.fingerprint, actor: 'agent' });
    expect(invocation.error?.code).to.equal('credential_required');
    const owner = await dispatch.dispatch({ key: 'TEST_OWNER_ONLY', body: { text: 'a' } }, OWNER);
    expect(owner.invocation.ok).to.equal(true);
  });

  it('turns a runner crash into a failed invocation (internal_error), not an exception', async () => {
    const { dispatch } = setup();
    const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body: { text: 'boom' } }, OWNER);
    expect(invocation).to.include({ ok: false, ran: true, status: 'failed' });
    expect(invocation.error?.code).to.equal('internal_error');
  });

  it('keeps coded runner errors (upstream_unavailable) and charges the run as waste', async () => {
    const { dispatch } = setup({ run: async () => { throw new SwitchyardError('upstream_unavailable', 'down'); } });
    const { invocation } = await dispatch.dispatch({ key: 'TEST_ECHO', body: { text: 'a' } }, OWNER);
    expect(invocation.error?.code).to.equal('upstream_unavailable');
    expect(invocation.yield.cost).to.equal(100);
    expect(invocation.yield.waste).to.deep.equal({ bytes: Buffer.byteLength('{"text":"a"}'), cost: 100 });
  });

  describe('lineage', () => {
    it('links a repair to the failed invocation; repaired_by is derived', async () => {
      const { dispatch, store } = setup();
      const bad = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const fix = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"ok"}', repairs: bad.id }, OWNER)).invocation;
      expect(fix).to.include({ ok: true, repairs: bad.id });
      expect((await store.get(bad.id))!.repaired_by).to.deep.equal([fix.id]);
    });

    it('lets repairs chain through a failed repair', async () => {
      const { dispatch, store } = setup();
      const a = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const b = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":5}', repairs: a.id }, OWNER)).invocation;
      const c = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"x"}', repairs: b.id }, OWNER)).invocation;
      expect([b.ok, c.ok]).to.deep.equal([false, true]);
      expect((await store.get(a.id))!.repaired_by).to.deep.equal([b.id]);
      expect((await store.get(b.id))!.repaired_by).to.deep.equal([c.id]);
    });

    it('closes the lineage once a repair succeeds: lineage_closed names it, for every link of the chain', async () => {
      const { dispatch, store } = setup();
      const a = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const b = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":5}', repairs: a.id }, OWNER)).invocation;
      const c = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"x"}', repairs: b.id }, OWNER)).invocation;
      const before = (await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length;
      for (const target of [a.id, b.id]) {
        const err = await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"y"}', repairs: target }, OWNER).then(() => undefined, (e: unknown) => e);
        expect(SwitchyardError.is(err, 'lineage_closed'), String(err)).to.equal(true);
        expect((err as SwitchyardError).details).to.include({ repairs: target, closed_by: c.id });
      }
      expect((await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length).to.equal(before);
    });

    it('keeps the chain linear: a failure that has a failed repair is repaired through that repair', async () => {
      const { dispatch, store } = setup();
      const a = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const b = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":5}', repairs: a.id }, OWNER)).invocation;
      const err = await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"x"}', repairs: a.id }, OWNER).then(() => undefined, (e: unknown) => e);
      expect(SwitchyardError.is(err, 'invalid_repair'), String(err)).to.equal(true);
      expect((err as SwitchyardError).details).to.include({ reason: 'superseded', repair_instead: b.id });
      expect((await store.get(a.id))!.repaired_by).to.deep.equal([b.id]);
    });

    it('lets one of two simultaneous repairs of a failure run; the other names it', async () => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const slow: CapabilityRunner = { run: async (_c, args) => (await gate, { echoed: args }) };
      const { dispatch, store } = setup(slow);
      const a = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const first = dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"1"}', repairs: a.id }, OWNER);
      const second = await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"2"}', repairs: a.id }, OWNER).then(() => undefined, (e: unknown) => e);
      release();
      const won = (await first).invocation;
      expect(SwitchyardError.is(second, 'repair_in_progress'), String(second)).to.equal(true);
      expect((second as SwitchyardError).details).to.include({ in_progress: won.id });
      expect((await store.get(a.id))!.repaired_by).to.deep.equal([won.id]);
    });

    it('reads the lineage again once a repair is reserved: one that ended in between closes it, and the late one runs nothing', async () => {
      // Reservations like the database's (one per failure), where the second repair's reservation
      // is taken only after the first repair has run and ended: its check before reserving saw no repair.
      const held = new Map<string, string>();
      let letSecondReserve!: () => void;
      const secondMayReserve = new Promise<void>((r) => (letSecondReserve = r));
      let begun = 0;
      const reservations: RunReservations = {
        begin: async (record) => {
          if (record.repairs !== null && ++begun === 2) await secondMayReserve;
          if (record.repairs !== null) {
            if (held.has(record.repairs)) throw repairInFlight(record.repairs, held.get(record.repairs)!);
            held.set(record.repairs, record.id);
          }
        },
        end: (id) => {
          for (const [failure, holder] of held) if (holder === id) held.delete(failure);
        },
        abandon: () => undefined,
        lapsed: async () => [],
        isReserved: async (id) => [...held.values()].includes(id),
        drop: async (id) => {
          for (const [failure, holder] of held) if (holder === id) held.delete(failure);
        },
        // Held in memory for the test's life: nothing to renew.
        startRenewing: () => undefined,
        stopRenewing: () => undefined,
      };
      const calls: unknown[] = [];
      const counting: CapabilityRunner = { run: async (_c, args) => (calls.push(args), { echoed: args }) };
      const registry = new CapabilityRegistry();
      const runners = new RunnerDirectory();
      registry.register(echoCapability);
      runners.assign(echoCapability.key, counting);
      const store = new MemoryInvocationStore();
      const dispatch = new DispatchService(registry, runners, store, { now: () => new Date() }, { timeoutMs: 1000 }, undefined, null, reservations);
      const failed = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const first = dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"1"}', repairs: failed.id }, OWNER);
      // The second is checked now (no repair yet) and waits at its reservation.
      const second = dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"2"}', repairs: failed.id }, OWNER).then(() => undefined, (e: unknown) => e);
      const won = (await first).invocation;
      expect(won.ok).to.equal(true);
      const before = (await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length;
      letSecondReserve();
      const err = await second;
      expect(SwitchyardError.is(err, 'lineage_closed'), String(err)).to.equal(true);
      expect((err as SwitchyardError).details).to.include({ repairs: failed.id, closed_by: won.id });
      expect(calls.map((args) => (args as { text: string }).text)).to.deep.equal(['1']);
      expect((await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length).to.equal(before);
      expect(held.size, 'the late repair released its reservation').to.equal(0);
      expect((await store.get(failed.id))!.repaired_by).to.deep.equal([won.id]);
    });

    it('a repair waiting for approval blocks nothing; once approved, its run carries the link and closes the lineage', async () => {
      const { dispatch } = setup();
      const failedRun = (await dispatch.dispatch({ key: 'TEST_GUARDED', body: '{}' }, OWNER)).invocation;
      expect(failedRun.status).to.equal('failed');
      const waiting = (await dispatch.dispatch({ key: 'TEST_GUARDED', body: '{"text":"a"}', repairs: failedRun.id }, OWNER)).invocation;
      expect(waiting).to.include({ status: 'awaiting_approval', repairs: failedRun.id });
      // Not yet a run: another repair may be asked for (that one waits too).
      const other = (await dispatch.dispatch({ key: 'TEST_GUARDED', body: '{"text":"b"}', repairs: failedRun.id }, OWNER)).invocation;
      expect(other.status).to.equal('awaiting_approval');
      const approved = (await dispatch.runApproved(waiting, { id: 'apr_1', args_hash: argsHash(waiting.args) })).invocation;
      expect(approved).to.include({ ok: true, repairs: failedRun.id, source: 'approval:apr_1' });
      const err = await dispatch.dispatch({ key: 'TEST_GUARDED', body: '{"text":"c"}', repairs: failedRun.id }, OWNER).then(() => undefined, (e: unknown) => e);
      expect(SwitchyardError.is(err, 'lineage_closed'), String(err)).to.equal(true);
      expect((err as SwitchyardError).details['closed_by']).to.equal(approved.id);
    });

    const badRepairs: [string, (ids: { ok: string; failed: string; otherKey: string }) => unknown, string][] = [
      ['an unknown invocation', () => 'inv_doesnotexist000000', 'not_found'],
      ['a successful invocation', (ids) => ids.ok, 'not_failed'],
      ['a failed invocation of another key', (ids) => ids.otherKey, 'different_key'],
      ['a malformed id', () => 'nope', 'malformed'],
      ['a number', () => 7, 'malformed'],
    ];
    for (const [name, pick, reason] of badRepairs) {
      it(`refuses a repair naming ${name} (invalid_repair, nothing ledgered)`, async () => {
        const { dispatch, store } = setup();
        const ok = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"a"}' }, OWNER)).invocation.id;
        const failed = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation.id;
        const otherKey = (await dispatch.dispatch({ key: 'TEST_OWNER_ONLY', body: '{}' }, OWNER)).invocation.id;
        const before = (await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length;
        try {
          await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"a"}', repairs: pick({ ok, failed, otherKey }) as string }, OWNER);
          expect.fail('should throw');
        } catch (err) {
          expect(SwitchyardError.is(err, 'invalid_repair'), String(err)).to.equal(true);
          expect((err as SwitchyardError).details['reason']).to.equal(reason);
        }
        expect((await store.list({ key: 'TEST_ECHO', order: 'append', cursor: null, limit: 100 })).items.length).to.equal(before);
      });
    }
  });

  describe('replay', () => {
    it('runs the same key and body again as a new invocation with replays', async () => {
      const { dispatch } = setup();
      const first = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"again"}' }, OWNER)).invocation;
      const again = (await dispatch.dispatch({ replay: first.id }, OWNER)).invocation;
      expect(again.id).to.not.equal(first.id);
      expect(again).to.include({ key: 'TEST_ECHO', body: '{"text":"again"}', replays: first.id, ok: true });
      expect(again.result).to.deep.equal(first.result);
    });

    it('replays a failed invocation to the same failure', async () => {
      const { dispatch } = setup();
      const first = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, OWNER)).invocation;
      const again = (await dispatch.dispatch({ replay: first.id }, OWNER)).invocation;
      expect(again).to.include({ ok: false, replays: first.id });
      expect(again.error?.code).to.equal('invalid_arguments');
    });

    it('replays and repairs only its owner\'s invocations: to anyone else they do not exist', async () => {
      const { dispatch } = setup();
      const mine = tokenCaller('k_mine');
      const other = tokenCaller('k_other');
      const narrowedAway = tokenCaller('k_mine', { keys: ['TEST_GUARDED'] });
      const ok = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"secret"}' }, mine)).invocation;
      const failed = (await dispatch.dispatch({ key: 'TEST_ECHO', body: '{}' }, mine)).invocation;
      const codeOf = async (p: Promise<unknown>) => p.then(() => 'ran', (e) => (SwitchyardError.is(e) ? e.code : String(e)));
      expect(await codeOf(dispatch.dispatch({ replay: ok.id }, other))).to.equal('invocation_not_found');
      expect(await codeOf(dispatch.dispatch({ replay: ok.id }, narrowedAway)), 'a family member narrowed off the key').to.equal('invocation_not_found');
      expect(await codeOf(dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"x"}', repairs: failed.id }, other))).to.equal('invocation_not_found');
      expect(await codeOf(dispatch.dispatch({ replay: ok.id }, mine))).to.equal('ran');
      expect(await codeOf(dispatch.dispatch({ key: 'TEST_ECHO', body: '{"text":"x"}', repairs: failed.id }, mine))).to.equal('ran');
      expect(await codeOf(dispatch.dispatch({ replay: ok.id }, OWNER)), 'the owner replays anything').to.equal('ran');
    });

    it('answers invocation_not_found for an unknown id', async () => {
      const { dispatch } = setup();
      try {
        await dispatch.dispatch({ replay: 'inv_unknownunknown0000' }, OWNER);
        expect.fail('should throw');
      } catch (err) {
        expect(SwitchyardError.is(err, 'invocation_not_found')).to.equal(true);
      }
    });
  });
});
