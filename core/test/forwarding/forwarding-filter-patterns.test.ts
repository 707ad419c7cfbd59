// Filter patterns (core/src/forwarding/filter.ts): `~=` matches on RE2, linear in the text, so a
// pattern that backtracks in JavaScript's engine answers at once here; RE2's syntax is checked on
// save for the patterns written in the expression; what the operator means is filtrex's own.
import { expect } from 'chai';
import { compileFilter } from '../../src/forwarding/filter.js';
import { readDestinationSettings } from '../../src/forwarding/destination.js';
import { compileTransform, sandboxStopped, TRANSFORM_DEADLINE_MS, TRANSFORM_MAX_HEAP_MB, TRANSFORM_MAX_MESSAGE, TRANSFORM_TIMEOUT_MS } from '../../src/forwarding/transform.js';
import { SwitchyardError } from '../../src/errors.js';

const body = (b: unknown) => ({ headers: {}, body: b });

describe('forwarding: filter patterns (~= on RE2)', () => {
  it('a pattern that backtracks exponentially in RegExp answers against a sender’s long text', function () {
    // In JavaScript's engine 32 characters take minutes (it doubles with every one); RE2 is
    // linear. (mocha fails a synchronous test that overran its timeout, once it returns.)
    this.timeout(10_000);
    const f = compileFilter('body.s ~= "^(a+)+$"');
    expect(f(body({ s: `${'a'.repeat(32)}!` }))).to.equal(false);
    expect(f(body({ s: 'a'.repeat(32) }))).to.equal(true);
    // A pattern from the body itself is as safe.
    expect(compileFilter('body.s ~= body.p')(body({ s: `${'a'.repeat(32)}!`, p: '^(a|a)+$' }))).to.equal(false);
  });

  it('means what filtrex’s ~= meant: a search anywhere in the text, case-sensitive, a list of one read as its item', () => {
    const f = compileFilter('body.type ~= "^invoice\\\\.(paid|failed)$"');
    expect(f(body({ type: 'invoice.paid' }))).to.equal(true);
    expect(f(body({ type: 'invoice.xpaid' }))).to.equal(false);
    expect(f(body({ type: 'Invoice.paid' }))).to.equal(false);
    expect(compileFilter('body.s ~= "b+"')(body({ s: 'abbc' }))).to.equal(true);
    expect(compileFilter('body.s ~= "(?i)HELLO"')(body({ s: 'say hello' }))).to.equal(true);
    expect(compileFilter('body.s ~= "x"')(body({ s: ['axb'] }))).to.equal(true);
    // Not text: a type error, and a filter whose value is an error turns the delivery away.
    expect(compileFilter('body.n ~= "1"')(body({ n: 1 }))).to.equal(false);
    expect(compileFilter('body.missing ~= "a"')(body({}))).to.equal(false);
  });

  it('a literal pattern RE2 does not take is refused on save with why; one from the body turns the delivery away', () => {
    const base = readDestinationSettings({ url: 'https://example.com/in' }, null);
    for (const bad of ['body.s ~= "(?=a)b"', 'body.s ~= "(a)\\\\1"', 'body.a == 1 or body.s ~= "(?<!x)y"']) {
      try {
        readDestinationSettings({ filter: bad }, base);
        expect.fail(`accepted ${bad}`);
      } catch (err) {
        expect(err).to.be.instanceOf(SwitchyardError);
        expect((err as SwitchyardError).code).to.equal('invalid_request');
        expect((err as SwitchyardError).message).to.match(/^filter: does not parse: the pattern .* is not one RE2 takes/);
      }
    }
    expect(readDestinationSettings({ filter: 'body.s ~= "^a[0-9]{2,3}$"' }, base).filter).to.equal('body.s ~= "^a[0-9]{2,3}$"');
    expect(compileFilter('body.s ~= body.p')(body({ s: 'ab', p: '(?=a)' }))).to.equal(false);
  });
});

describe('forwarding: what a sandboxed transform that is stopped fails with', () => {
  it('each stop is a failure naming its reason and bound, never a throw', () => {
    expect(TRANSFORM_DEADLINE_MS).to.be.above(TRANSFORM_TIMEOUT_MS);
    expect(sandboxStopped({ kind: 'deadline', ms: TRANSFORM_DEADLINE_MS })).to.deep.equal({ ok: false, message: `the transform was stopped after ${TRANSFORM_DEADLINE_MS} ms (its hard deadline; a regular expression that backtracks, or one step that runs long, ends here)` });
    const died = sandboxStopped({ kind: 'died', detail: 'FATAL ERROR: Reached heap limit; signal SIGABRT', heapMb: TRANSFORM_MAX_HEAP_MB });
    expect(died.ok).to.equal(false);
    expect(!died.ok && died.message).to.equal(`the transform was stopped: its evaluator died (FATAL ERROR: Reached heap limit; signal SIGABRT); at most ${TRANSFORM_MAX_HEAP_MB} MiB of memory and V8's string and array sizes are allowed`);
    expect(sandboxStopped({ kind: 'unavailable', detail: 'the service is stopping' })).to.deep.equal({ ok: false, message: 'the transform could not be run: the service is stopping' });
  });

  it('a failure’s message is cut, so $error of a huge string does not go into the ledger whole', async () => {
    const result = await compileTransform('$error($reduce([1..16], function($a, $b){ $a & $a }, "0123456789abcdef"))')({ headers: {}, body: {} });
    expect(result.ok).to.equal(false);
    const message = !result.ok ? result.message : '';
    expect(message).to.match(/^D3137 at position \d+: (0123456789abcdef)+… \(1048576 characters\)$/);
    expect(message.length).to.be.below(TRANSFORM_MAX_MESSAGE + 100);
  });
});
