// The transform sandbox (transform-sandbox.ts): transforms run in child processes, so an expression
// that backtracks is stopped at its deadline while this process's event loop goes on, one that
// builds a string past V8's limits kills its evaluator and not this process, and each time a new
// evaluator takes the next transform.
import { expect } from 'chai';
import { compileTransform } from '@switchyard/core';
import { DEFAULT_TRANSFORM_SANDBOX, ProcessTransformSandbox } from '../src/transform-sandbox.js';

/** JavaScript's RegExp takes seconds on 27 characters, doubling with each one more. */
const BACKTRACKS = '$contains(s, /^(a+)+$/)';
const LONG_A = { s: `${'a'.repeat(40)}!` };
/** 64 characters doubled 22 times, then $length (Array.from over 268 M characters): V8 aborts. */
const SIZE_BOMB = '$length($reduce([1..22], function($a, $b){ $a & $a }, "0123456789012345678901234567890123456789012345678901234567890123"))';

describe('adapter app: the transform sandbox', function () {
  this.timeout(30_000);
  let sandbox: ProcessTransformSandbox;
  beforeEach(() => (sandbox = new ProcessTransformSandbox({ ...DEFAULT_TRANSFORM_SANDBOX, deadlineMs: 1000, heapMb: 128 })));
  afterEach(() => sandbox.close());

  it('answers what core’s transform answers, bounds and failures included', async () => {
    const input = { headers: { 'x-topic': 'orders/create' }, body: { id: 'ord_1', lines: [{ qty: 2, price: 5 }] } };
    for (const expression of ['{"order": id, "total": $sum(lines.(qty * price)), "event": $headers."x-topic"}', '$error("no " & id)', 'missing', '$pad("", 400000000, "x")']) {
      expect(await sandbox.evaluate(expression, input)).to.deep.equal(await compileTransform(expression)(input));
    }
    expect(await sandbox.evaluate('$', { headers: {}, body: undefined })).to.deep.equal({ ok: false, message: 'the delivery body is not JSON, so it cannot be transformed' });
    // An expression stored before a rule it breaks fails, with why.
    expect(await sandbox.evaluate('{"a": ', input)).to.include({ ok: false });
  });

  it('stops a backtracking regular expression at its deadline while this event loop runs, and the next transform gets a new evaluator', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const stopped = await sandbox.evaluate(BACKTRACKS, { headers: {}, body: LONG_A });
    clearInterval(ticker);
    expect(stopped).to.deep.equal({ ok: false, message: 'the transform was stopped after 1000 ms (its hard deadline; a regular expression that backtracks, or one step that runs long, ends here)' });
    // This process's timers fired while the expression ran elsewhere.
    expect(ticks).to.be.above(0);
    expect(await sandbox.evaluate('$contains(s, /^(a+)+$/)', { headers: {}, body: { s: 'aaaa' } })).to.deep.equal({ ok: true, body: 'true' });
  });

  it('a transform that makes V8 abort kills its evaluator, not this process; the attempt fails with what V8 said', async () => {
    // The deadline is not what this test is about: far from it, so a loaded machine's slow abort
    // is still an abort and never a stop at the deadline.
    await sandbox.close();
    sandbox = new ProcessTransformSandbox({ ...DEFAULT_TRANSFORM_SANDBOX, deadlineMs: 25_000, heapMb: 128 });
    const died = await sandbox.evaluate(SIZE_BOMB, { headers: {}, body: {} });
    expect(died.ok).to.equal(false);
    expect(!died.ok && died.message).to.match(/^the transform was stopped: its evaluator died \((FATAL ERROR: .*heap|Fatal JavaScript invalid size error).*; (signal SIG[A-Z]+|exit code \d+)\); at most 128 MiB/);
    expect(await sandbox.evaluate('{"after": id}', { headers: {}, body: { id: 7 } })).to.deep.equal({ ok: true, body: '{"after":7}' });
  });

  it('a runaway transform holds one evaluator: another one answers the next transform meanwhile', async () => {
    const order: string[] = [];
    const runaway = sandbox.evaluate(BACKTRACKS, { headers: {}, body: LONG_A }).then(() => order.push('runaway'));
    const plain = sandbox.evaluate('id', { headers: {}, body: { id: 1 } }).then((r) => order.push(`plain ${JSON.stringify(r)}`));
    await Promise.all([runaway, plain]);
    expect(order).to.deep.equal(['plain {"ok":true,"body":"1"}', 'runaway']);
  });

  it('close stops every evaluator and answers what was waiting; the next transform starts one again', async () => {
    expect(await sandbox.evaluate('1', { headers: {}, body: {} })).to.deep.equal({ ok: true, body: '1' });
    expect(sandbox.size).to.equal(1);
    const waiting = sandbox.evaluate(BACKTRACKS, { headers: {}, body: LONG_A });
    await sandbox.close();
    expect(sandbox.size).to.equal(0);
    expect(await waiting).to.deep.equal({ ok: false, message: 'the transform could not be run: the service is stopping' });
    expect(await sandbox.evaluate('2', { headers: {}, body: {} })).to.deep.equal({ ok: true, body: '2' });
  });

  it('an evaluator that does not start in time is given up: the evaluation fails with why, and the next one starts anew', async () => {
    const slow = new ProcessTransformSandbox({ ...DEFAULT_TRANSFORM_SANDBOX, startMs: 1 });
    try {
      expect(await slow.evaluate('1', { headers: {}, body: {} })).to.deep.equal({ ok: false, message: 'the transform could not be run: its evaluator did not start in 1 ms' });
      expect(slow.size).to.equal(0);
    } finally {
      await slow.close();
    }
  });
});
