// A plugin as a team makes it: scaffolded with `switchyard plugin new` outside the repository, its own
// `npm install && npm test` (the kit's contract suite) passes, and the service loads it by config alone.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { main } from '@switchyard/cli';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startTestService } from '../support/app.js';
import { cleanEnv, npmStartArgs } from '../support/npm-start.js';

const KIT = join(PROJECT_ROOT, 'adapters', 'plugin-kit');
const silent = { out: () => {}, err: () => {} };

/** Runs npm in `cwd` without the network: the kit comes from this checkout as a file: dependency. */
function npm(cwd: string, ...args: string[]): { status: number | null; output: string } {
  const result = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('a plugin package outside the repository', function () {
  this.timeout(180_000);
  let folder: string;
  let dir: string;

  before(async function () {
    folder = mkdtempSync(join(tmpdir(), 'switchyard-plugin-'));
    dir = join(folder, 'notes');
    expect(await main(['plugin', 'new', dir, '--system', 'NOTES', '--kit', `file:${KIT}`], {}, silent)).to.equal(0);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('refuses to write over a folder that is not empty, and a system that is not upper case', async function () {
    const err: string[] = [];
    expect(await main(['plugin', 'new', dir, '--system', 'NOTES'], {}, { out: () => {}, err: (t) => err.push(t) })).to.equal(2);
    expect(await main(['plugin', 'new', join(folder, 'other'), '--system', 'notes'], {}, { out: () => {}, err: (t) => err.push(t) })).to.equal(2);
    expect(err.join('\n')).to.contain('is not empty').and.to.contain('--system must be upper-case');
  });

  it('passes its own npm install && npm test: the contract suite against its simulator', function () {
    const install = npm(dir, 'install');
    expect(install.status, install.output).to.equal(0);
    const test = npm(dir, 'test');
    expect(test.status, test.output).to.equal(0);
    expect(test.output).to.contain('plugin contract: notes');
    expect(test.output).to.match(/\b11 passing\b/);
    expect(test.output).to.contain('declares honest MCP annotations');
    expect(test.output).not.to.match(/failing/);
  });

  // The package's npm install (above) gave it its kit; from here on Switchyard loads it as it is.
  for (const engine of engines()) {
    it(`is loaded by its from path and runs its capability through HTTP (${engine})`, async function () {
      const svc = await startTestService(engine, { plugins: { notes: { from: dir, upstream: { url: 'simulator' }, titlePrefix: '#' } } });
      try {
        const http = request(svc.switchyard.app);
        const res = await http.post('/api/dispatch').set('x-sheets-key', TEST_API_KEY).send({ key: 'NOTES_CREATE_NOTE', body: { title: 'Printer on fire' } }).expect(200);
        expect(res.body.ok, JSON.stringify(res.body.error)).to.equal(true);
        expect(res.body.result).to.deep.equal({ id: 'note_1', title: '#Printer on fire', body: '' });
        const stored = await http.get(`/api/invocations/${res.body.invocation.id}`).set('x-sheets-key', TEST_API_KEY).expect(200);
        expect(JSON.stringify(stored.body)).to.contain('OIP > NOTES > NOTES_CREATE_NOTE');
      } finally {
        await svc.close();
      }
    });
  }

  it('stops the compiled service (npm start) with one line saying to compile it or run npm run dev', function () {
    const config = join(folder, 'notes.json');
    writeFileSync(config, JSON.stringify({ plugins: { notes: { from: dir, upstream: { url: 'simulator' } } } }));
    const run = spawnSync(process.execPath, npmStartArgs(PROJECT_ROOT), { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000, env: cleanEnv({ PORT: '0', DATABASE_URL: `sqlite:${join(folder, 'compiled.db')}`, SWITCHYARD_CONFIG: config }) });
    expect(run.status, run.stderr).to.equal(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines, run.stderr).to.have.length(1);
    expect(lines[0]).to.match(/^switchyard: cannot start: config plugins\.notes\.from: cannot load /);
    expect(lines[0]).to.contain('is TypeScript: npm start runs compiled JavaScript, so compile the plugin').and.contain('npm run dev');
  });

  it('refuses a bad option value at load, naming its key, and a from that leads nowhere', async function () {
    const [engine] = engines();
    for (const [entry, key] of [
      [{ from: dir, upstream: { url: 'simulator' }, titlePrefix: 7 }, 'plugins.notes.titlePrefix'],
      [{ from: dir, upstream: { url: 'simulator', transport: 'pigeon' } }, 'plugins.notes.upstream.transport'],
      [{ from: dir, titlePrefix: '' }, 'plugins.notes.upstream'],
      [{ from: join(folder, 'nowhere') }, 'plugins.notes.from'],
    ] as const) {
      let error: Error | undefined;
      try {
        await (await startTestService(engine!, { plugins: { notes: entry } })).close();
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message, JSON.stringify(entry)).to.match(new RegExp(`^config ${key.replace(/\./g, '\\.')}: `));
    }
  });
});
