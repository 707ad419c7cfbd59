// Pure forwarding rules: settings checks, backoff, filters, and Standard Webhooks signing (checked
// against the standardwebhooks library, the receivers' verifier).
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_RETRY, SendShares, compileFilter, destinationShare, forwardedHeaders, readForwardHeaders, newDestinationSecret, readDestinationSettings, retryDelayMs, standardWebhookHeaders, SwitchyardError } from '../../src/index.js';

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

describe('forwarding: each destination’s share of the send slots', () => {
  it('is the service’s share, or the destination’s own setting when lower', () => {
    expect(destinationShare(null, 4)).to.equal(4);
    expect(destinationShare(2, 4)).to.equal(2);
    expect(destinationShare(16, 4)).to.equal(4);
  });

  it('counts the jobs a destination holds (twice its share), names the full ones, and says when one ending has work waiting', () => {
    const shares = new SendShares(2);
    shares.know({ id: 'dst_one', concurrency: 1 });
    expect(shares.claimCap).to.equal(4);
    for (let i = 0; i < 3; i++) shares.take('dst_a');
    shares.take('dst_one');
    expect(shares.full()).to.deep.equal([]);
    shares.take('dst_a');
    shares.take('dst_one');
    expect(shares.full().sort()).to.deep.equal(['dst_a', 'dst_one']);
    expect(shares.room('dst_a')).to.equal(0);
    expect(shares.room('dst_new')).to.equal(4);
    expect(shares.release('dst_a')).to.equal(false);
    shares.turnedAway('dst_one');
    expect(shares.release('dst_one')).to.equal(true);
    expect(shares.release('dst_one')).to.equal(false);
    expect(shares.full()).to.deep.equal([]);
  });

  it('lets only its share of requests go at once; the next waits, in order, for one to end', async () => {
    const shares = new SendShares(2);
    const order: string[] = [];
    expect(await shares.acquire('dst_a')).to.equal(false);
    expect(await shares.acquire('dst_a')).to.equal(false);
    expect(shares.sending('dst_a')).to.equal(2);
    const third = shares.acquire('dst_a').then((waited) => order.push(waited ? 'third' : 'third at once'));
    const fourth = shares.acquire('dst_a').then(() => order.push('fourth'));
    await shares.acquire('dst_b'); // another destination is not held up
    await new Promise((r) => setImmediate(r));
    expect(order).to.deep.equal([]);
    shares.releaseSend('dst_a');
    await third;
    expect(order).to.deep.equal(['third']);
    expect(shares.sending('dst_a')).to.equal(2);
    shares.releaseSend('dst_a');
    await fourth;
    expect(order).to.deep.equal(['third', 'fourth']);
    for (let i = 0; i < 2; i++) shares.releaseSend('dst_a');
    expect(shares.sending('dst_a')).to.equal(0);
  });
});

describe('forwarding: which headers go on', () => {
  const received: Array<[string, string]> = [
    ['Host', 'switchyard.example'],
    ['Content-Type', 'application/json'],
    ['Content-Encoding', 'gzip'],
    ['Content-Length', '42'],
    ['Connection', 'keep-alive, X-Per-Hop'],
    ['X-Per-Hop', 'only this connection'],
    ['Transfer-Encoding', 'chunked'],
    ['Cookie', 'session=1'],
    ['Authorization', 'Bearer sender'],
    ['x-sheets-key', 'sy_secret'],
    ['X-GitHub-Event', 'push'],
    ['X-Hub-Signature-256', 'sha256=abc'],
    ['Webhook-Signature', 'v1,theirs'],
    ['X-Tag', 'one'],
    ['x-tag', 'two'],
  ];

  it('"all" keeps every header but hop-by-hop ones, Host, Content-Length and credentials; repeated ones in order', () => {
    expect(forwardedHeaders(received, 'all', {})).to.deep.equal({
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': 'sha256=abc',
      'X-Tag': ['one', 'two'],
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
  });

  it('"none" sends only the body’s type and encoding; a list only the names it gives; configured headers replace received ones', () => {
    expect(forwardedHeaders(received, 'none', {})).to.deep.equal({ 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(forwardedHeaders(received, ['x-github-event'], { 'X-Tag': 'mine', authorization: 'Bearer dst' })).to.deep.equal({
      'X-GitHub-Event': 'push',
      'X-Tag': 'mine',
      authorization: 'Bearer dst',
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(forwardedHeaders([['X-A', '1']], 'all', {})).to.deep.equal({ 'X-A': '1', 'content-type': 'application/octet-stream' });
  });

  it('checks the setting: a list naming a hop-by-hop, framing, credential or signing header is refused naming it', () => {
    expect(readForwardHeaders('all')).to.equal('all');
    expect(readForwardHeaders(['X-GitHub-Event', 'x-github-event', 'Stripe-Signature'])).to.deep.equal(['x-github-event', 'stripe-signature']);
    for (const name of ['Connection', 'transfer-encoding', 'Upgrade', 'TE', 'Host', 'Content-Length', 'Cookie', 'Authorization', 'X-Sheets-Key', 'webhook-signature']) {
      expect(fieldOf(() => readForwardHeaders(['x-ok', name])), name).to.equal(`forward_headers.${name}`);
    }
    for (const bad of ['some', [], ['bad name'], [1], Array.from({ length: 51 }, (_, i) => `x-${i}`)]) {
      expect(fieldOf(() => readForwardHeaders(bad)), JSON.stringify(bad)).to.equal('forward_headers');
    }
    expect(fieldOf(() => readDestinationSettings({ url: 'https://example.com', forward_headers: ['keep-alive'] }, null))).to.equal('forward_headers.keep-alive');
    expect(readDestinationSettings({ url: 'https://example.com' }, null).forward_headers).to.equal('all');
  });
});
