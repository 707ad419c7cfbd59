// The switchyard command as a user runs it: the real bin in a child process against a real
// service (SQLite), checking output and exit codes.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { BIN, runCli } from './run-cli.js';
import { TEST_API_KEY, startListeningService, type ListeningService } from '../../../test/support/app.js';



describe('adapter cli: switchyard hook …', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let url: string;
  let hookId: string;

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(url, args, env);
  const deliver = async (body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}/hook/${hookId}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return (await res.json()) as { entry: string };
  };

  before(async function () {
    svc = await startListeningService('sqlite');
    url = svc.url;
  });
  after(async () => svc?.close());

  it('creates a webhook and lists it as a table and as JSON', async function () {
    const created = await cli(['hook', 'create', 'GitHub', 'org', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    hookId = JSON.parse(created.stdout).id;
    expect(hookId).to.match(/^hk_[A-Za-z0-9]{12}$/);
    const listed = await cli(['hook', 'list']);
    expect(listed.stdout.split('\n')[0]).to.match(/^ID\s+NAME\s+ON\s+ADDRESS/);
    expect(listed.stdout).to.contain(hookId).and.contain('GitHub org').and.contain(`${url}/hook/${hookId}`);
    const json = JSON.parse((await cli(['hook', 'list', '--json'])).stdout);
    expect(json.map((h: { id: string }) => h.id)).to.include(hookId);
  });

  it('turns a webhook off and on', async function () {
    expect((await cli(['hook', 'off', hookId])).stdout).to.contain('is Off');
    expect((await fetch(`${url}/hook/${hookId}`, { method: 'POST', body: '{}' })).status).to.equal(403);
    expect((await cli(['hook', 'on', hookId])).stdout).to.contain('is On');
  });

  it('lists deliveries newest first and shows one whole', async function () {
    const a = await deliver('{"id":"evt_a","n":1}');
    const b = await deliver('{"id":"evt_a","n":2}', { 'X-Extra': 'yes' });
    const table = await cli(['hook', 'deliveries', hookId, '--limit', '5']);
    expect(table.code).to.equal(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^ENTRY\s+RECEIVED\s+HOOK\s+EVENT TYPE\s+DELIVERY ID\s+DUPLICATE\s+OUTCOME\s+SIGNATURE\s+BYTES/);
    expect(lines[1]).to.contain(b.entry).and.contain(`yes (${a.entry})`);
    const json = JSON.parse((await cli(['hook', 'deliveries', '--json', '--limit', '2'])).stdout);
    expect(json.map((d: { id: string }) => d.id)).to.deep.equal([b.entry, a.entry]);
    const shown = await cli(['hook', 'show', b.entry]);
    expect(shown.stdout).to.contain('X-Extra: yes').and.contain('{"id":"evt_a","n":2}').and.contain(`duplicate    yes, of ${a.entry}`);
    expect(shown.stdout).to.contain('signature    - (not checked)');
  });

  it('tells outcomes in one vocabulary: accepted, duplicate, refused with its reason', async function () {
    const first = await deliver('{"id":"evt_words"}', { 'webhook-id': 'msg_words' });
    const again = await deliver('{"id":"evt_words"}', { 'webhook-id': 'msg_words' });
    const res = await fetch(`${url}/hook/${hookId}/MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'not json' });
    const refused = ((await res.json()) as { delivery: { entry: string } }).delivery.entry;
    const rows = (await cli(['hook', 'deliveries', hookId, '--limit', '3'])).stdout.trim().split('\n').slice(1);
    expect(rows[0]).to.contain(refused).and.contain('refused: invalid_arguments');
    expect(rows[1]).to.contain(again.entry).and.match(/\bduplicate\b/);
    expect(rows[2]).to.contain(first.entry).and.match(/\baccepted\b/);
    expect((await cli(['hook', 'show', refused])).stdout).to.contain('outcome      refused: invalid_arguments: action MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS refused');
  });

  it('follows new deliveries as they arrive', async function () {
    const child = spawn(process.execPath, [BIN, 'hook', 'deliveries', hookId, '--follow', '--json', '--interval', '100', '--limit', '1'], {
      env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_API_KEY: TEST_API_KEY },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const deadline = Date.now() + 20_000;
      while (!out.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const fresh = await deliver('{"id":"evt_follow"}');
      while (!out.includes(fresh.entry) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const last = out.trim().split('\n').pop()!;
      expect(JSON.parse(last)).to.include({ id: fresh.entry, delivery_id: 'evt_follow' });
    } finally {
      child.kill();
    }
  });

  it('follows as a table whose rows line up under the header printed first', async function () {
    const child = spawn(process.execPath, [BIN, 'hook', 'deliveries', hookId, '--follow', '--interval', '100', '--limit', '1'], {
      env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_API_KEY: TEST_API_KEY },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const deadline = Date.now() + 20_000;
      while (out.split('\n').length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // A GitHub-style UUID id, then a duplicate of it: the widest values a row usually holds.
      const uuid = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
      const first = await deliver('{}', { 'X-GitHub-Delivery': uuid, 'X-GitHub-Event': 'pull_request_review' });
      const again = await deliver('{}', { 'X-GitHub-Delivery': uuid, 'X-GitHub-Event': 'pull_request_review' });
      while (!out.includes(again.entry) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const lines = out.split('\n');
      const header = lines[0]!;
      const row = lines.find((l) => l.includes(again.entry))!;
      for (const [column, value] of [['HOOK', hookId], ['EVENT TYPE', 'pull_request_review'], ['DELIVERY ID', uuid], ['DUPLICATE', `yes (${first.entry})`], ['OUTCOME', 'duplicate'], ['SIGNATURE', '- ']] as const) {
        expect(row.indexOf(value, header.indexOf(column)), `${column} lines up`).to.equal(header.indexOf(column));
      }
    } finally {
      child.kill();
    }
  });

  it('lists deliveries of one event type, counts event types, and creates a webhook with its event-type path', async function () {
    await deliver('{"type":"order.paid","n":1}');
    const paid = await deliver('{"type":"order.paid","n":2}');
    await deliver('{"type":"order.refunded"}');
    const only = await cli(['hook', 'deliveries', hookId, '--event-type', 'order.paid', '--json']);
    expect(only.code, only.stderr).to.equal(0);
    const items = JSON.parse(only.stdout) as Array<{ id: string; event_type: string }>;
    expect(items.map((d) => d.event_type)).to.deep.equal(['order.paid', 'order.paid']);
    expect(items[0]!.id).to.equal(paid.entry);
    const table = (await cli(['hook', 'deliveries', hookId, '--event-type', 'order.paid'])).stdout.trim().split('\n');
    expect(table).to.have.length(3);
    expect(table[1]).to.contain(paid.entry).and.contain('order.paid');
    expect((await cli(['hook', 'show', paid.entry])).stdout).to.contain('event type   order.paid (body:type)');
    const counts = await cli(['hook', 'event-types', hookId]);
    expect(counts.code, counts.stderr).to.equal(0);
    const rows = counts.stdout.trim().split('\n');
    expect(rows[0]).to.match(/^EVENT TYPE\s+DELIVERIES$/);
    expect(rows).to.include.members([`order.paid${' '.repeat(rows[0]!.indexOf('DELIVERIES') - 'order.paid'.length)}2`]);
    expect(JSON.parse((await cli(['hook', 'event-types', hookId, '--json'])).stdout).items).to.deep.include({ event_type: 'order.refunded', count: 1 });
    const created = JSON.parse((await cli(['hook', 'create', 'typed', '--event-type-path', 'header:x-kind', '--json'])).stdout);
    expect(created.event_type_path).to.equal('header:x-kind');
    const tooLong = await cli(['hook', 'deliveries', hookId, '--event-type', 'x'.repeat(201)]);
    expect(tooLong.code).to.equal(1);
    expect(tooLong.stderr).to.contain('switchyard: invalid_request: event_type must be');
  });

  it('fails clearly: no key, wrong key, unreachable server, bad usage', async function () {
    const noKey = await cli(['hook', 'list'], { SWITCHYARD_API_KEY: '' });
    expect(noKey.code).to.equal(1);
    expect(noKey.stderr).to.contain('switchyard: credential_required');
    const wrong = await cli(['hook', 'list', '--key', 'sy_wrong_key_0000000000']);
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.contain('invalid_api_key');
    const down = await cli(['hook', 'list', '--url', 'http://127.0.0.1:1']);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.contain('unreachable');
    expect((await cli([])).code).to.equal(2);
    expect((await cli(['hook', 'fly'])).code).to.equal(2);
    const bare = await cli(['hook']);
    expect(bare.code).to.equal(2);
    expect(bare.stderr).to.contain('hook needs a command; try: list, create');
    const unknownHook = await cli(['hook', 'deliveries', 'hk_AAAAAAAAAAAA']);
    expect(unknownHook.code).to.equal(1);
    expect(unknownHook.stderr).to.contain('webhook_not_found');
    expect((await cli(['hook', 'off', 'not-an-id'])).code).to.equal(2);
    expect((await cli(['hook', 'deliveries', '--limit', '0'])).code).to.equal(2);
    expect((await cli(['hook', 'show', 'dlv_doesnotexist'])).stderr).to.contain('not_found');
  });
});

describe('adapter cli: hook deliveries within the byte budget', function () {
  this.timeout(60_000);
  let svc: ListeningService;

  const cli = (args: string[]) => runCli(svc.url, args);

  before(async function () {
    svc = await startListeningService('sqlite', { ledger: { inlineBodyBytes: 8192, pageBytes: 65_536 } });
  });
  after(async () => svc?.close());

  it('gives as many deliveries as asked for though each page ends early, and names a large body by hash and URL', async function () {
    const hook = JSON.parse((await cli(['hook', 'create', 'budget', '--json'])).stdout).id as string;
    const entries: string[] = [];
    const post = async (body: string) => {
      const res = await fetch(`${svc.url}/hook/${hook}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
      entries.push(((await res.json()) as { entry: string }).entry);
    };
    for (let i = 0; i < 20; i++) await post(`${i}:${'x'.repeat(8000)}`);
    await post('y'.repeat(20_000));
    // About seven of these fit a page of 64 KiB: 20 need three pages.
    const page = (await (await fetch(`${svc.url}/api/ledger?event=webhook%20delivery&hook=${hook}&limit=20`, { headers: { 'x-sheets-key': TEST_API_KEY } })).json()) as { items: unknown[]; next_cursor: string | null };
    expect(page.items.length).to.be.below(20);
    expect(page.next_cursor).to.be.a('string');
    const listed = await cli(['hook', 'deliveries', hook, '--limit', '21', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const items = JSON.parse(listed.stdout) as Array<{ id: string; body_omitted: boolean; body_sha256: string; body_url: string }>;
    expect(items.map((d) => d.id)).to.deep.equal([...entries].reverse());
    expect(items[0]).to.include({ body_omitted: true, body_url: `${svc.url}/api/ledger/${entries[20]}/body` });
    const shown = await cli(['hook', 'show', entries[20]!]);
    expect(shown.stdout).to.contain(`sha256 ${items[0]!.body_sha256}`).and.contain(`raw          ${svc.url}/api/ledger/${entries[20]}/body`);
  });
});
