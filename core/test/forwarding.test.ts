// Pure forwarding rules: settings checks, backoff, filters, and Standard Webhooks signing (checked
// against the standardwebhooks library, the receivers' verifier).
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_RETRY, compileFilter, newDestinationSecret, readDestinationSettings, retryDelayMs, standardWebhookHeaders, SwitchyardError } from '../src/index.js';

const fieldOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    if (SwitchyardError.is(err)) return err.details['field'];
    throw err;
  }
  return undefined;
};

describe('forwarding: destination settings', () => {
  it('fills in the defaults on create and names the host when no name is given', () => {
    const s = readDestinationSettings({ url: 'https://example.com/in' }, null);
    expect(s).to.deep.include({ url: 'https://example.com/in', name: 'example.com', ordered: false, on: true, rate_per_s: null, filter: null, timeout_ms: 10_000 });
    expect(s.retry).to.deep.equal(DEFAULT_RETRY);
  });

  it('names the bad field', () => {
    expect(fieldOf(() => readDestinationSettings({ url: 'https://u:p@example.com' }, null))).to.equal('url');
    expect(fieldOf(() => readDestinationSettings({ url: 'https://example.com', retry: { initial_ms: 500, max_ms: 200 } }, null))).to.equal('retry.max_ms');
    expect(fieldOf(() => readDestinationSettings({ url: 'https://example.com', rate_per_s: 0 }, null))).to.equal('rate_per_s');
    expect(fieldOf(() => readDestinationSettings({ url: 'https://example.com', headers: { 'x-a': 'b\r\nc' } }, null))).to.equal('headers.x-a');
    expect(fieldOf(() => readDestinationSettings({ url: 'https://example.com', on: false }, null))).to.equal('on');
  });

  it('a change keeps what it does not name', () => {
    const current = readDestinationSettings({ url: 'https://example.com', retry: { max_attempts: 3 } }, null);
    const changed = readDestinationSettings({ retry: { initial_ms: 100 }, on: false }, current);
    expect(changed.retry).to.deep.equal({ ...DEFAULT_RETRY, max_attempts: 3, initial_ms: 100 });
    expect(changed).to.include({ url: 'https://example.com/', on: false });
  });
});

describe('forwarding: backoff', () => {
  const retry = { max_attempts: 8, initial_ms: 1000, max_ms: 10_000 };
  it('doubles from initial_ms, between half and the whole step, capped at max_ms', () => {
    expect(retryDelayMs(retry, 1, () => 0)).to.equal(1000);
    expect(retryDelayMs(retry, 1, () => 1)).to.equal(1000);
    expect(retryDelayMs(retry, 3, () => 0)).to.equal(2000);
    expect(retryDelayMs(retry, 3, () => 1)).to.equal(4000);
    expect(retryDelayMs(retry, 30, () => 1)).to.equal(10_000);
    expect(retryDelayMs(retry, 30, () => 0)).to.equal(5000);
  });
});

describe('forwarding: filters', () => {
  it('reads dotted paths into the body and headers by name; a missing path is false, not an error', () => {
    const f = compileFilter('body.data.type == "paid" and headers.x_kind == "live"');
    expect(f({ headers: { x_kind: 'live' }, body: { data: { type: 'paid' } } })).to.equal(true);
    expect(f({ headers: { x_kind: 'test' }, body: { data: { type: 'paid' } } })).to.equal(false);
    expect(f({ headers: {}, body: null })).to.equal(false);
    expect(compileFilter('\'x-kind\' of headers == "a"')({ headers: { 'x-kind': 'a' }, body: null })).to.equal(true);
  });

  it('does not reach past the data it is given', () => {
    expect(compileFilter('body.constructor')({ headers: {}, body: {} })).to.equal(false);
    expect(() => compileFilter('body.type ==')).to.throw();
  });
});

describe('forwarding: Standard Webhooks signing', () => {
  it('signs so that the standardwebhooks library verifies it, and only with the same secret', () => {
    const secret = newDestinationSecret();
    const body = Buffer.from('{"a":1}');
    const headers = standardWebhookHeaders(secret, 'dlv_x', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(secret).verify(body.toString(), headers)).to.deep.equal({ a: 1 });
    expect(() => new Webhook(newDestinationSecret()).verify(body.toString(), headers)).to.throw();
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).to.throw();
  });
});
