// A plugin as a team makes it: scaffolded with `switchyard plugin new` outside the repository, its own
// `npm install` compiles it and `npm test` (the kit's contract suite) passes, and the service loads
// it by config alone: the compiled service (npm start) its dist/, the service under tsx its src/.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import request from 'supertest';
import { main } from '@switchyard/cli';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY, engines, startTestService } from '../support/app.js';
import { cleanEnv, npmStart, npmStartArgs } from '../support/npm-start.js';

const KIT = join(PROJECT_ROOT, 'adapters', 'plugin-kit');
const silent = { out: () => {}, err: () => {} };

interface LockEntry {
  version: string;
  dependencies?: Record<string, string>;
  dev?: boolean;
}

/**
 * A package-lock.json for `dir` that pins its dev dependencies (and theirs) to the versions this
 * checkout's lockfile holds, by integrity: npm then takes them from its cache, which this checkout's
 * npm install filled, with no request to the registry. A version outside the package's range makes
 * npm ask the registry, which --offline refuses.
 */
function lockLikeThisCheckout(dir: string): void {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const ours = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const packages: Record<string, unknown> = { '': { name: pkg.name, version: pkg.version, dependencies: pkg.dependencies, devDependencies: pkg.devDependencies } };
  const add = (name: string): void => {
    if (packages[`node_modules/${name}`]) return;
    const entry = ours[`node_modules/${name}`];
    if (!entry) throw new Error(`${name} is not in this checkout's package-lock.json`);
    packages[`node_modules/${name}`] = { ...entry, dev: true };
    for (const dep of Object.keys(entry.dependencies ?? {})) add(dep);
  };
  for (const name of Object.keys(pkg.devDependencies)) add(name);
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2));
}

/** The compiled service's one-line refusal to start with `entry` as plugins.notes. */
function compiledRefusal(folder: string, entry: Record<string, unknown>): string {
  const config = join(folder, 'refused.json');
  writeFileSync(config, JSON.stringify({ plugins: { notes: entry } }));
  const run = spawnSync(process.execPath, npmStartArgs(PROJECT_ROOT), { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000, env: cleanEnv({ PORT: '0', DATABASE_URL: `sqlite:${join(folder, 'refused.db')}`, SWITCHYARD_CONFIG: config }) });
  expect(run.status, run.stderr).to.equal(1);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).to.have.length(1);
  expect(lines[0]).to.match(/^switchyard: cannot start: config plugins\.notes\.from: cannot load /);
  return lines[0]!;
}

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

  it('is refused by the compiled service until it is compiled, with one line saying how', function () {
    expect(existsSync(join(dir, 'dist')), 'a fresh scaffold has no build').to.equal(false);
    const line = compiledRefusal(folder, { from: dir, upstream: { url: 'simulator' } });
    expect(line).to.contain(`${join(dir, 'dist', 'index.js')} does not exist: the package is not compiled; run npm install`);
  });

  it('compiles on its own npm install (prepare) and passes npm test: the contract suite against its simulator', function () {
    lockLikeThisCheckout(dir);
    const install = npm(dir, 'install');
    expect(install.status, install.output).to.equal(0);
    expect(install.output).to.contain('switchyard-plugin-build');
    for (const file of ['index.js', 'index.d.ts', 'simulator.js', 'runner.js']) expect(existsSync(join(dir, 'dist', file)), file).to.equal(true);
    const test = npm(dir, 'test');
    expect(test.status, test.output).to.equal(0);
    expect(test.output).to.contain('plugin contract: notes');
    expect(test.output).to.match(/\b11 passing\b/);
    expect(test.output).to.contain('declares honest MCP annotations');
    expect(test.output).not.to.match(/failing/);
  });

  it('runs under npm start (compiled JavaScript) by a from relative to the working directory: listed, and run through HTTP', async function () {
    const config = join(folder, 'compiled.json');
    // As docs/plugins.md gives it: from is a path relative to where the service starts.
    writeFileSync(config, JSON.stringify({ plugins: { notes: { from: relative(PROJECT_ROOT, dir), upstream: { url: 'simulator' }, titlePrefix: '#' } } }));
    const svc = await npmStart(PROJECT_ROOT, { DATABASE_URL: `sqlite:${join(folder, 'compiled.db')}`, SWITCHYARD_CONFIG: config });
    try {
      const registry = (await (await fetch(`${svc.url}/api/dispatch?registry=1`)).json()) as { capabilities: { key: string; Path: string }[] };
      expect(registry.capabilities.find((c) => c.key === 'NOTES_CREATE_NOTE'), JSON.stringify(registry)).to.deep.include({ Path: 'OIP > NOTES > NOTES_CREATE_NOTE' });
      const res = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': svc.apiKey }, body: JSON.stringify({ key: 'NOTES_CREATE_NOTE', body: { title: 'Printer on fire' } }) });
      const answer = (await res.json()) as { ok: boolean; result: unknown; error?: unknown };
      expect(res.status, JSON.stringify(answer)).to.equal(200);
      expect(answer.result).to.deep.equal({ id: 'note_1', title: '#Printer on fire', body: '' });
      // Its simulator, compiled too, stands in for the upstream, and the start says so.
      const said = svc.stderr().split('\n').filter((l) => l.includes('upstream simulators stand in for real servers'));
      expect(said, svc.stderr()).to.have.length(1);
      expect((JSON.parse(said[0]!) as { plugins: string[] }).plugins).to.include('notes');
    } finally {
      expect(await svc.stop(), svc.stderr()).to.equal(0);
    }
  });

  // Under tsx (as npm run dev runs it) the service reads the package's src/, by the switchyard-source condition.
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

  it('stops the compiled service (npm start) on TypeScript with one line saying to compile it or run npm run dev', function () {
    const line = compiledRefusal(folder, { from: join(dir, 'src', 'index.ts'), upstream: { url: 'simulator' } });
    expect(line).to.contain('is TypeScript: npm start runs compiled JavaScript, so compile the plugin').and.contain('npm run dev');
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
