// The sessions' state on its own, with a recording forward: shared upstream subscriptions, fan-out
// of updates to each subscriber's stream, the limits, credential binding, and what a failed
// upstream subscribe leaves behind (nothing).
import { expect } from 'chai';
import { SwitchyardError } from '@switchyard/core';
import { CallerSessions, holderOf, logPasses, type Holder } from '../../src/server/caller-sessions.js';

const LIMITS = { maxSessions: 3, maxPerCredential: 3, keyedReserve: 0, maxSubscriptions: 2, idleMs: 60_000, streamIdleMs: 60_000 };
/** A keyed holder of its own share. */
const h = (id: string): Holder => ({ id, share: { key: id, keyed: true } });
const OWNER = h('owner');

function setup(refuse: Set<string> = new Set()) {
  const forwarded: string[] = [];
  const sessions = new CallerSessions(LIMITS, async (server, method, params) => {
    forwarded.push(`${server} ${method} ${params.uri}`);
    if (refuse.has(params.uri)) throw new Error(`refused ${params.uri}`);
    return {};
  });
  const stream = () => {
    const sent: unknown[] = [];
    return { sent, stream: { send: (m: Record<string, unknown>) => void sent.push(m), close() {} } };
  };
  return { sessions, forwarded, stream };
}

const codeOf = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return SwitchyardError.is(err) ? err.code : (err as Error).message;
  }
  return 'no error';
};

describe('adapter mcp: caller sessions', () => {
  let open: CallerSessions[] = [];
  afterEach(() => {
    for (const s of open) s.close();
    open = [];
  });

  it('subscribes upstream once for every session, tells each subscriber, and unsubscribes with the last', async () => {
    const { sessions, forwarded, stream } = setup();
    open.push(sessions);
    const a = stream();
    const b = stream();
    sessions.openStream('a', OWNER, a.stream);
    sessions.openStream('b', OWNER, b.stream);
    await sessions.subscribe('a', OWNER, 'srv', 'x://1');
    await sessions.subscribe('b', OWNER, 'srv', 'x://1');
    expect(forwarded).to.deep.equal(['srv resources/subscribe x://1']);
    sessions.resourceUpdated('srv', { uri: 'x://1' });
    sessions.resourceUpdated('other', { uri: 'x://1' });
    const update = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x://1' } };
    expect(a.sent).to.deep.equal([update]);
    expect(b.sent).to.deep.equal([update]);
    await sessions.unsubscribe('a', OWNER, 'srv', 'x://1');
    expect(forwarded).to.have.length(1);
    expect(sessions.end('b', OWNER)).to.equal(true);
    await new Promise((r) => setImmediate(r));
    expect(forwarded).to.deep.equal(['srv resources/subscribe x://1', 'srv resources/unsubscribe x://1']);
    expect(sessions.size.upstreamSubscriptions).to.equal(0);
  });

  it('refuses over the limits with session_limit: subscriptions per session, streams per session, sessions per process', async () => {
    const { sessions, stream } = setup();
    open.push(sessions);
    await sessions.subscribe('a', OWNER, 'srv', 'x://1');
    await sessions.subscribe('a', OWNER, 'srv', 'x://2');
    await sessions.subscribe('a', OWNER, 'srv', 'x://2');
    expect(await codeOf(sessions.subscribe('a', OWNER, 'srv', 'x://3'))).to.equal('session_limit');
    sessions.openStream('a', OWNER, stream().stream);
    expect(await codeOf(() => sessions.openStream('a', OWNER, stream().stream))).to.equal('session_limit');
    // A session holding only a log level makes room for a new one; sessions holding more do not.
    sessions.setLevel('b', OWNER, 'info');
    await sessions.subscribe('c', OWNER, 'srv', 'x://1');
    sessions.setLevel('d', OWNER, 'debug');
    expect(sessions.levelOf('b', OWNER)).to.equal(undefined);
    expect(sessions.levelOf('d', OWNER)).to.equal('debug');
    await sessions.subscribe('d', OWNER, 'srv', 'x://1');
    expect(await codeOf(() => sessions.setLevel('e', OWNER, 'info'))).to.equal('session_limit');
  });

  it('binds a session to the credential that made it', async () => {
    const { sessions, stream } = setup();
    open.push(sessions);
    const token = holderOf({ kind: 'token', token: 'sy_tok_secret', scope: { id: 'k_secret', fingerprint: 'fp_secret' } });
    expect(token.id).to.match(/^token:[0-9a-f]{32}$/).and.not.contain('secret');
    expect(token.share).to.deep.equal({ key: 'fp_secret', keyed: false });
    sessions.setLevel('a', token, 'warning');
    expect(sessions.levelOf('a', OWNER)).to.equal(undefined);
    expect(sessions.levelOf('a', token)).to.equal('warning');
    expect(await codeOf(() => sessions.openStream('a', OWNER, stream().stream))).to.equal('scope_denied');
    expect(sessions.end('a', OWNER)).to.equal(false);
  });

  it('remembers the sessions their holders ended (to answer 404), per holder, the oldest forgotten past maxSessions', () => {
    const { sessions } = setup();
    open.push(sessions);
    sessions.setLevel('a', OWNER, 'info');
    expect(sessions.hasEnded('a', OWNER)).to.equal(false);
    expect(sessions.end('a', OWNER)).to.equal(true);
    expect(sessions.hasEnded('a', OWNER)).to.equal(true);
    // Another credential cannot end (or spoil) someone else's session by naming its id.
    expect(sessions.hasEnded('a', h('token:x'))).to.equal(false);
    expect(sessions.end('b', h('token:x'))).to.equal(false);
    expect(sessions.hasEnded('b', h('token:x'))).to.equal(true);
    expect(sessions.hasEnded('b', OWNER)).to.equal(false);
    expect(sessions.hasEnded(undefined, OWNER)).to.equal(false);
    for (const id of ['c', 'd']) sessions.end(id, OWNER);
    // LIMITS.maxSessions is 3: 'a' (the oldest) is forgotten, the rest still refused.
    expect(['a', 'b', 'c', 'd'].map((id) => sessions.hasEnded(id, id === 'b' ? h('token:x') : OWNER))).to.deep.equal([false, true, true, true]);
  });

  it('holds nothing after the upstream refuses a subscription, and asks again next time', async () => {
    const refuse = new Set(['x://no']);
    const { sessions, forwarded } = setup(refuse);
    open.push(sessions);
    expect(await codeOf(sessions.subscribe('a', OWNER, 'srv', 'x://no'))).to.equal('refused x://no');
    expect(sessions.size.upstreamSubscriptions).to.equal(0);
    refuse.clear();
    await sessions.subscribe('a', OWNER, 'srv', 'x://no');
    expect(forwarded).to.deep.equal(['srv resources/subscribe x://no', 'srv resources/subscribe x://no']);
  });

  it('passes log messages at or above the level', () => {
    expect(logPasses('warning', 'info')).to.equal(true);
    expect(logPasses('info', 'info')).to.equal(true);
    expect(logPasses('debug', 'info')).to.equal(false);
    expect(logPasses('emergency', 'error')).to.equal(true);
  });
  it('holds a listen as a session of its own: it shares the upstream subscription, leaves out what the upstream refused, and releases on close', async () => {
    const { sessions, forwarded, stream } = setup(new Set(['x://refused']));
    open.push(sessions);
    const a = stream();
    sessions.openStream('a', OWNER, a.stream);
    await sessions.subscribe('a', OWNER, 'srv', 'x://1');
    const l = stream();
    const listen = await sessions.listen(OWNER, 'srv', ['x://1', 'x://refused'], l.stream);
    expect(listen.honored).to.deep.equal(['x://1']);
    expect(forwarded).to.deep.equal(['srv resources/subscribe x://1', 'srv resources/subscribe x://refused']);
    sessions.resourceUpdated('srv', { uri: 'x://1' });
    expect(l.sent).to.have.length(1);
    expect(a.sent).to.have.length(1);
    listen.close();
    await new Promise((r) => setImmediate(r));
    expect(forwarded).to.have.length(2);
    await sessions.unsubscribe('a', OWNER, 'srv', 'x://1');
    expect(forwarded.at(-1)).to.equal('srv resources/unsubscribe x://1');
    expect(sessions.size).to.deep.equal({ sessions: 1, upstreamSubscriptions: 0 });
  });

  it('bounds one credential\'s listens together by maxSubscriptions, and a listen counts against maxSessions', async () => {
    const { sessions, forwarded, stream } = setup();
    open.push(sessions);
    expect(await codeOf(sessions.listen(OWNER, 'srv', ['x://1', 'x://2', 'x://3'], stream().stream))).to.equal('session_limit');
    expect(forwarded).to.deep.equal([]);
    const first = await sessions.listen(OWNER, 'srv', ['x://1'], stream().stream);
    await sessions.listen(OWNER, 'srv', ['x://2'], stream().stream);
    expect(await codeOf(sessions.listen(OWNER, 'srv', ['x://3'], stream().stream))).to.equal('session_limit');
    // Another credential has its own allowance, but the process holds at most maxSessions (3).
    await sessions.listen(h('token:t'), 'srv', ['x://3'], stream().stream);
    expect(await codeOf(sessions.listen(h('token:u'), 'srv', ['x://4'], stream().stream))).to.equal('session_limit');
    first.close();
    expect((await sessions.listen(h('token:u'), 'srv', ['x://4'], stream().stream)).honored).to.deep.equal(['x://4']);
  });
});
