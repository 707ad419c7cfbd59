// Destination transforms (core/src/forwarding/transform.ts): what a JSONata expression makes of a
// body, and every bound that stops one: time, depth, sequence length, output size.
import { expect } from 'chai';
import { TRANSFORM_MAX_OUTPUT_BYTES, compileTransform } from '../../src/forwarding/transform.js';
import { readDestinationSettings } from '../../src/forwarding/destination.js';
import { SwitchyardError } from '../../src/errors.js';

const run = (expression: string, body: unknown, headers: Record<string, string> = {}) => compileTransform(expression)({ headers, body });

describe('forwarding transforms', () => {
  it('a destination setting: null by default, checked when set, taken away with null', () => {
    const base = readDestinationSettings({ url: 'https://example.com/in' }, null);
    expect(base.transform).to.equal(null);
    expect(readDestinationSettings({ transform: '{"a": b}' }, base).transform).to.equal('{"a": b}');
    expect(readDestinationSettings({ transform: null }, { ...base, transform: '$' }).transform).to.equal(null);
    for (const bad of ['{"a": }', '', '   ', 7, 'x'.repeat(10_001)]) {
      try {
        readDestinationSettings({ transform: bad }, base);
        expect.fail(`accepted ${JSON.stringify(bad).slice(0, 20)}`);
      } catch (err) {
        expect(err).to.be.instanceOf(SwitchyardError);
        expect((err as SwitchyardError).code).to.equal('invalid_request');
        expect((err as SwitchyardError).message).to.match(/^transform: /);
      }
    }
  });

  it('rewrites the body, with the delivery headers as $headers', async () => {
    expect(await run('{"id": data.id, "topic": $headers."x-topic"}', { data: { id: 7 } }, { 'x-topic': 'a/b' })).to.deep.equal({ ok: true, body: '{"id":7,"topic":"a/b"}' });
  });

  it('throws the full JSONata message for an expression that does not parse', () => {
    expect(() => compileTransform('{"a": }')).to.throw(/^S0211 at position 7: The symbol "}" cannot be used as a unary operator$/);
  });

  it('stops a loop at its time limit and endless recursion at its depth limit', async () => {
    const loop = await run('($f := function($x) { $f($x + 1) }; $f(0))', {});
    expect(loop).to.deep.include({ ok: false });
    expect((loop as { message: string }).message).to.match(/^D1012 at position \d+: Evaluation timeout after 500 milliseconds/);
    const deep = await run('($f := function($x) { 1 + $f($x) }; $f(0))', {});
    expect((deep as { message: string }).message).to.match(/^D1011 at position \d+: Stack overflow/);
  });

  it('refuses a sequence past its bound and a result past its size', async () => {
    expect((await run('[1..200000].($ * 2)', {})) as { message: string }).to.have.property('message').that.matches(/^D2015/);
    const big = await run(`$pad("", ${TRANSFORM_MAX_OUTPUT_BYTES}, "x")`, {});
    expect(big).to.deep.equal({ ok: false, message: `the transform produced ${TRANSFORM_MAX_OUTPUT_BYTES + 2} bytes of JSON; at most ${TRANSFORM_MAX_OUTPUT_BYTES} may be sent` });
  });

  it('refuses a $pad past the output bound before building it, and pads as JSONata does below it', async () => {
    expect(await run('$pad("", 400000000, "x")', {})).to.deep.equal({ ok: false, message: `$pad: a width of 400000000 passes the ${TRANSFORM_MAX_OUTPUT_BYTES}-byte bound on a transform's output` });
    expect(await run('$pad("ab", -5, "xy") & "|" & $pad("ab", 4) & "|" & $pad("abcdef", 3)', {})).to.deep.equal({ ok: true, body: '"xyxab|ab  |abcdef"' });
  });

  it('fails, saying why, on a body that is not JSON, on nothing produced and on an $error', async () => {
    expect(await run('$', undefined)).to.deep.equal({ ok: false, message: 'the delivery body is not JSON, so it cannot be transformed' });
    expect(await run('nothing.here', { a: 1 })).to.deep.equal({ ok: false, message: 'the transform produced nothing (no part of the body matched)' });
    expect(await run('$error("bad " & a)', { a: 1 })).to.deep.equal({ ok: false, message: 'D3137 at position 7: bad 1' });
    // JSON null is a body like any other.
    expect(await run('{"was": $}', null)).to.deep.equal({ ok: true, body: '{"was":null}' });
  });
});
