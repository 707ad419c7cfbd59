// The paused runs of one process on their own: the limits (per process, per credential) withdraw a
// run that would pause past them, a run that ends frees its place, expiry withdraws it, and close
// withdraws every one and waits for its end to be recorded.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SwitchyardError } from '@switchyard/core';
import { PausedCalls, type PausedRun } from '../../src/server/paused-calls.js';
import { RequestStateSeal } from '../../src/server/request-state-seal.js';

const seal = () => new RequestStateSeal(randomBytes(32));

/** A run that asks one question and then ends with the answer, or rejects when withdrawn. */
function asking(calls: PausedCalls, holder: string): { run: PausedRun<string>; question: Promise<Record<string, unknown>>; recorded: Promise<string> } {
  const run = calls.begin<string>({ id: holder, share: { key: holder, keyed: true } }, 'T', 'args');
  const question = run.ask('elicitation/create', { message: 'name?' });
  question.catch(() => {});
  const recorded = question.then(
    (answer) => `ok ${JSON.stringify(answer)}`,
    (err: Error) => `withdrawn: ${err.message}`,
  );
  run.start(recorded);
  return { run, question, recorded };
}

const limitOf = (fn: () => unknown): SwitchyardError => {
  try {
    fn();
  } catch (err) {
    if (SwitchyardError.is(err)) return err;
    throw err;
  }
  throw new Error('expected session_limit');
};

describe('PausedCalls: bounded, and withdrawn at shutdown', () => {
  it('past maxPerCredential the run is withdrawn and session_limit names the setting; another credential still pauses', async () => {
    const calls = new PausedCalls(seal(), { max: 10, maxPerCredential: 1, keyedReserve: 0, ttlMs: 60_000 });
    const first = asking(calls, 'key');
    expect(calls.pause(first.run)).to.be.a('string');
    const second = asking(calls, 'key');
    const refused = limitOf(() => calls.pause(second.run));
    expect(refused.code).to.equal('session_limit');
    expect(refused.message).to.contain('mcp.pausedCalls.maxPerCredential');
    expect(refused.details).to.deep.equal({ limit: 1 });
    expect(second.run.signal.aborted).to.equal(true);
    expect(await second.recorded).to.match(/^withdrawn: .*maxPerCredential/);
    const other = asking(calls, 'token:abc');
    expect(calls.pause(other.run)).to.be.a('string');
    expect(calls.size).to.equal(2);
  });

  it('past max the run is withdrawn; a run that ends frees its place', () => {
    const calls = new PausedCalls(seal(), { max: 2, maxPerCredential: 5, keyedReserve: 0, ttlMs: 60_000 });
    const a = asking(calls, 'a');
    const b = asking(calls, 'b');
    calls.pause(a.run);
    calls.pause(b.run);
    const c = asking(calls, 'c');
    expect(limitOf(() => calls.pause(c.run)).message).to.contain('mcp.pausedCalls.max)');
    calls.end(a.run);
    expect(calls.size).to.equal(1);
    const d = asking(calls, 'c');
    expect(calls.pause(d.run)).to.be.a('string');
  });

  it('a run asked again (same round, a fresh state) keeps its one place', () => {
    const calls = new PausedCalls(seal(), { max: 1, maxPerCredential: 1, keyedReserve: 0, ttlMs: 60_000 });
    const a = asking(calls, 'a');
    calls.pause(a.run);
    expect(calls.askAgain(a.run)).to.be.a('string');
    a.run.awaiting = false;
    expect(calls.pause(a.run)).to.be.a('string');
    expect(calls.size).to.equal(1);
  });

  it('an unanswered run is withdrawn after ttlMs, and its place freed', async () => {
    const calls = new PausedCalls(seal(), { max: 1, maxPerCredential: 1, keyedReserve: 0, ttlMs: 30 });
    const a = asking(calls, 'a');
    calls.pause(a.run);
    expect(await a.recorded).to.match(/^withdrawn: the caller did not answer within 30 ms/);
    expect(calls.size).to.equal(0);
    expect(calls.pause(asking(calls, 'a').run)).to.be.a('string');
  });

  it('close withdraws every paused run, waits for each to end, and refuses to pause any more', async () => {
    const calls = new PausedCalls(seal(), { max: 10, maxPerCredential: 10, keyedReserve: 0, ttlMs: 60_000 });
    const a = asking(calls, 'a');
    const b = asking(calls, 'b');
    calls.pause(a.run);
    calls.pause(b.run);
    let ended = 0;
    void a.run.ended.then(() => ended++);
    void b.run.ended.then(() => ended++);
    await calls.close();
    expect(ended).to.equal(2);
    expect(await a.recorded).to.equal('withdrawn: this service process is shutting down');
    expect(calls.size).to.equal(0);
    const late = asking(calls, 'a');
    expect(limitOf(() => calls.pause(late.run)).message).to.contain('shutting down');
  });
});
