// `switchyard upstream list|refresh` as a user runs it: the real bin in a child process against a
// real service (SQLite) that imports the listing fixture over stdio.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { startListeningService, type ListeningService } from '../../../test/support/app.js';
import { LISTING_FIXTURE } from '../../../test/support/everything-server.js';


describe('adapter cli: switchyard upstream …', function () {
  this.timeout(60_000);
  let svc: ListeningService;
  let dir: string;
  let toolsFile: string;

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(svc.url, args, env);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-upstream-'));
    toolsFile = join(dir, 'tools.json');
    writeFileSync(toolsFile, JSON.stringify(['alpha', 'beta']));
    svc = await startListeningService('sqlite', {
      // Accepts changes (pinned, not held): these tests follow a changing list; holds are tool.test.ts's.
      upstreams: { servers: { listing: { system: 'LISTING', transport: 'stdio', command: process.execPath, args: [LISTING_FIXTURE], env: { TOOLS_FILE: toolsFile }, onChange: 'accept' } } },
    });
  });
  after(async () => {
    await svc?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the imported servers as a table and as JSON', async () => {
    const listed = await cli(['upstream', 'list']);
    expect(listed.code, listed.stderr).to.equal(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^NAME\s+SYSTEM\s+TRANSPORT\s+STATUS\s+TOOLS/);
    expect(lines[1]).to.match(/^listing\s+LISTING\s+stdio\s+ok\s+2\s/);
    const json = JSON.parse((await cli(['upstream', 'list', '--json'])).stdout);
    expect(json[0]).to.deep.include({ name: 'listing', tools: 2, keys: ['LISTING_ALPHA', 'LISTING_BETA'] });
  });

  it('refreshes a server and prints what was added and removed', async () => {
    writeFileSync(toolsFile, JSON.stringify(['beta', 'gamma']));
    const refreshed = await cli(['upstream', 'refresh', 'listing']);
    expect(refreshed.code, refreshed.stderr).to.equal(0);
    expect(refreshed.stdout).to.contain('listing: 2 tools under LISTING').and.contain('added:   LISTING_GAMMA').and.contain('removed: LISTING_ALPHA');
    expect(svc.switchyard.registry.has('LISTING_ALPHA')).to.equal(false);
    const json = JSON.parse((await cli(['upstream', 'refresh', 'listing', '--json'])).stdout);
    expect(json).to.deep.include({ added: [], removed: [], count: 2 });
  });

  it('fails with the server\'s code for an unknown name, a missing name or no key', async () => {
    const unknown = await cli(['upstream', 'refresh', 'nope']);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('upstream_not_found');
    expect((await cli(['upstream', 'refresh'])).code).to.equal(2);
    const keyless = await cli(['upstream', 'list'], { SWITCHYARD_API_KEY: '' });
    expect(keyless.code).to.equal(1);
    expect(keyless.stderr).to.contain('credential_required');
  });
});
