// The same scaffolded package dropped into plugins/ of a temporary copy of this repository, not built
// yet (as a fresh clone is): the root's npm install compiles it with the rest (its prepare,
// tsc -b tsconfig.build.json plugins/*), its tests pass there, and the compiled service (npm start)
// loads it by config alone, with no file outside its folder changed.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '@switchyard/cli';
import { PROJECT_ROOT } from '@switchyard/app';
import { npmStart } from '../support/npm-start.js';

const git = (cwd: string, ...args: string[]): string => {
  const r = spawnSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** A copy of the repository's files (as git sees them) whose node_modules links our packages to the copy's own folders. */
function cloneRepository(into: string): void {
  for (const file of git(PROJECT_ROOT, 'ls-files', '-co', '--exclude-standard', '-z').split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(PROJECT_ROOT, file), join(into, file));
  }
  const modules = join(PROJECT_ROOT, 'node_modules');
  mkdirSync(join(into, 'node_modules', '@switchyard'), { recursive: true });
  for (const entry of readdirSync(modules)) {
    if (entry !== '@switchyard') symlinkSync(join(modules, entry), join(into, 'node_modules', entry));
  }
  // Workspace links are relative (../../core), so they point into the copy as npm would make them.
  for (const pkg of readdirSync(join(modules, '@switchyard'))) {
    symlinkSync(readlinkSync(join(modules, '@switchyard', pkg)), join(into, 'node_modules', '@switchyard', pkg));
  }
  git(into, 'init', '-q');
  git(into, 'add', '-A');
  git(into, 'commit', '-q', '-m', 'copy');
}

describe('a plugin package dropped into plugins/ of a copy of the repository', function () {
  this.timeout(600_000);
  let clone: string;
  before(function () {
    clone = mkdtempSync(join(tmpdir(), 'switchyard-clone-'));
    cloneRepository(clone);
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  it('is compiled by the root install, type-checked and passes its tests there, and runs under npm start by config alone, no other file changed', async function () {
    expect(await main(['plugin', 'new', join(clone, 'plugins', 'notes'), '--system', 'NOTES'], {}, { out: () => {}, err: () => {} })).to.equal(0);

    // What the root's npm install runs: each workspace's prepare (the plugin's, here before the kit is
    // compiled, so it must leave its build to the root), then the root's own prepare, the build.
    expect(existsSync(join(clone, 'adapters', 'plugin-kit', 'dist')), 'the kit is not compiled yet').to.equal(false);
    const own = spawnSync('npm', ['run', 'prepare', '--workspace', 'plugins/notes'], { cwd: clone, encoding: 'utf8' });
    expect(own.status, `${own.stdout}${own.stderr}`).to.equal(0);
    expect(own.stdout).to.contain('left to the checkout root');
    const build = spawnSync('npm', ['run', '--silent', 'prepare'], { cwd: clone, encoding: 'utf8' });
    expect(build.status, `${build.stdout}${build.stderr}`).to.equal(0);
    expect(existsSync(join(clone, 'plugins', 'notes', 'dist', 'index.js')), 'the root build compiled the plugin').to.equal(true);
    const tests = spawnSync(process.execPath, [join(clone, 'node_modules', 'mocha', 'bin', 'mocha.js'), 'plugins/notes/test/**/*.test.ts'], { cwd: clone, encoding: 'utf8' });
    expect(tests.status, `${tests.stdout}${tests.stderr}`).to.equal(0);
    expect(tests.stdout).to.contain('plugin contract: notes');
    expect(git(clone, 'status', '--porcelain', '--untracked-files=normal').trim()).to.equal('?? plugins/notes/');

    const data = mkdtempSync(join(tmpdir(), 'switchyard-clone-data-'));
    // npm run typecheck checks plugins/*/src and plugins/*/test in the test project (test/tsconfig.json);
    // the same options over this plugin's files alone, with the kit read from its declarations, take
    // seconds rather than the whole test project's tens of seconds.
    const typecheck = join(data, 'tsconfig.json');
    writeFileSync(typecheck, JSON.stringify({
      extends: join(clone, 'test', 'tsconfig.json'),
      compilerOptions: { composite: false, incremental: false, noEmit: true, emitDeclarationOnly: false, declaration: false, customConditions: [], typeRoots: [join(clone, 'node_modules', '@types')] },
      include: [join(clone, 'plugins', 'notes', 'src'), join(clone, 'plugins', 'notes', 'test')],
    }));
    const checked = spawnSync(process.execPath, [join(clone, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', typecheck], { cwd: clone, encoding: 'utf8' });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).to.equal(0);
    const config = join(data, 'config.json');
    writeFileSync(config, JSON.stringify({ plugins: { notes: { from: 'switchyard-plugin-notes', upstream: { url: 'simulator' }, titlePrefix: '> ' } } }));
    const svc = await npmStart(clone, { SWITCHYARD_CONFIG: config, DATABASE_URL: `sqlite:${join(data, 'db.sqlite')}` });
    try {
      const registry = (await (await fetch(`${svc.url}/api/dispatch?registry=1`)).json()) as { capabilities: { key: string; Path: string }[] };
      expect(registry.capabilities.find((c) => c.key === 'NOTES_CREATE_NOTE'), JSON.stringify(registry)).to.deep.include({ Path: 'OIP > NOTES > NOTES_CREATE_NOTE' });
      const res = await fetch(`${svc.url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': svc.apiKey }, body: JSON.stringify({ key: 'NOTES_CREATE_NOTE', body: { title: 'in tree' } }) });
      const answer = (await res.json()) as { ok: boolean; result: unknown; error?: unknown };
      expect(res.status, JSON.stringify(answer)).to.equal(200);
      expect(answer.result).to.deep.equal({ id: 'note_1', title: '> in tree', body: '' });
    } finally {
      expect(await svc.stop(), svc.stderr()).to.equal(0);
      rmSync(data, { recursive: true, force: true });
    }
  });
});
