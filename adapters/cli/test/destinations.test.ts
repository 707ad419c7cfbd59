// `switchyard hook destinations|dead|retry` as a user runs them: the real bin against a real service
// (SQLite) forwarding to a real receiver on loopback.
import { expect } from 'chai';
import { runCli } from './run-cli.js';
import { startListeningService, type ListeningService } from '../../../test/support/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/support/receiver.js';

describe('adapter cli: switchyard hook destinations, dead, retry', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let rx: Receiver;
  const cli = (args: string[]) => runCli(svc.url, args);

  before(async () => {
    rx = await startReceiver();
    svc = await startListeningService('sqlite', { webhooks: { forwarding: { allow: [`127.0.0.1:${rx.port}`], pollMs: 20 } } });
  });
  after(async () => {
    await svc?.close();
    await rx?.close();
  });

  it('adds a destination, lists it, shows its dead letters and re-forwards them', async () => {
    const hook = JSON.parse((await cli(['hook', 'create', 'forwarded', '--json'])).stdout).id;
    const added = await cli(['hook', 'destinations', hook, 'add', rx.url(), '--name', 'orders', '--max-attempts', '1']);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.match(/^created dst_\w{16} → /).and.match(/secret: whsec_/);
    const dst = /created (dst_\w{16})/.exec(added.stdout)![1]!;
    const listed = await cli(['hook', 'destinations', hook]);
    expect(listed.stdout.split('\n')[0]).to.match(/^ID\s+NAME\s+ON\s+URL\s+CIRCUIT/);
    expect(listed.stdout).to.contain(dst).and.contain('orders').and.contain('closed');

    const rotated = await cli(['hook', 'destinations', hook, 'rotate-secret', dst, '--grace-s', '60']);
    expect(rotated.code, rotated.stderr).to.equal(0);
    expect(rotated.stdout).to.match(new RegExp(`^${dst} has a new secret: whsec_\\S+ \\(shown once\\)\nattempts are signed with the old secret too until \\d{4}-`));
    expect((await cli(['hook', 'destinations', hook, 'rotate-secret', dst, '--grace-s', 'soon'])).code).to.equal(2);

    rx.answer = () => ({ status: 500 });
    const res = await fetch(`${svc.url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' });
    const { entry } = (await res.json()) as { entry: string };
    const dead = await eventually(async () => {
      const out = await cli(['hook', 'dead', hook, dst]);
      return out.stdout.includes(entry) ? out : undefined;
    }, 'the dead letter listed');
    expect(dead.stdout.split('\n')[0]).to.match(/^ENTRY\s+ATTEMPTS\s+LAST STATUS/);

    rx.answer = () => ({ status: 200 });
    const retried = await cli(['hook', 'retry', hook, dst, '--dead']);
    expect(retried.stdout.trim()).to.equal('1 dead letter re-forwarded');
    await eventually(async () => ((await cli(['hook', 'dead', hook, dst])).stdout.trim() === 'no dead letters' && rx.received.length === 2 ? true : undefined), 'delivered on retry');

    expect((await cli(['hook', 'destinations', hook, 'off', dst])).stdout).to.contain('is Off');
    expect((await cli(['hook', 'destinations', hook, 'delete', dst])).stdout).to.contain('deleted');
  });

  it('lists, admits and takes away run-time allowlist entries', async () => {
    const added = await cli(['hook', 'allow', '10.0.0.5:8080']);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.contain('10.0.0.5:8080 admitted');
    const listed = await cli(['hook', 'allow']);
    expect(listed.stdout.split('\n')[0]).to.match(/^HOST\s+FROM\s+ADDED/);
    expect(listed.stdout).to.contain(`127.0.0.1:${rx.port}`).and.contain('configuration').and.contain('10.0.0.5:8080').and.contain('run time');
    expect((await cli(['hook', 'disallow', '10.0.0.5:8080'])).stdout).to.contain('10.0.0.5:8080 taken off the allowlist');
    expect((await cli(['hook', 'allow', '--json'])).stdout).not.to.contain('10.0.0.5');
    const bad = await cli(['hook', 'allow', 'not a host']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^switchyard: invalid_request: host: /);
    expect((await cli(['hook', 'disallow'])).code).to.equal(2);
  });

  it('adds a destination with a transform, lists it, and prints JSONata\'s full message for one that does not parse', async () => {
    const hook = JSON.parse((await cli(['hook', 'create', 'transformed', '--json'])).stdout).id;
    const added = await cli(['hook', 'destinations', hook, 'add', rx.url('/t'), '--transform', '{"id": id}']);
    expect(added.code, added.stderr).to.equal(0);
    const listed = await cli(['hook', 'destinations', hook]);
    expect(listed.stdout.split('\n')[0]).to.match(/FILTER\s+TRANSFORM$/);
    expect(listed.stdout).to.contain('{"id": id}');
    const bad = await cli(['hook', 'destinations', hook, 'add', rx.url('/t'), '--transform', '{"id": }']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr.trim()).to.equal('switchyard: invalid_request: transform: does not parse: S0211 at position 8: The symbol "}" cannot be used as a unary operator');
  });

  it('answers usage errors with exit 2 and server refusals with exit 1', async () => {
    const hook = JSON.parse((await cli(['hook', 'create', 'x', '--json'])).stdout).id;
    expect((await cli(['hook', 'retry', hook, 'dst_AAAAAAAAAAAAAAAA'])).code).to.equal(2);
    const bad = await cli(['hook', 'destinations', hook, 'add', 'ftp://example.com']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^switchyard: invalid_request: url: /);
  });
});
