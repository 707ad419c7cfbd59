// The same scaffolded package dropped into plugins/ of a temporary copy of this repository: it builds
// with the rest (tsc -b . plugins/*), its tests pass there, and the service loads it by config alone,
// with no file outside its folder changed.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { main } from '@switchyard/cli';
import { PROJECT_ROOT } from '@switchyard/app';

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

/** Starts `npm start`'s command in `cwd` and answers the URL it logs once it listens. */
function startService(cwd: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=switchyard-source', '--import', 'tsx', 'adapters/app/src/main.ts'], { cwd, env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('switchyard listening'));
      if (line) resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the service exited (${code}) before listening:\n${output}`)));
  });
}

describe('a plugin package dropped into plugins/ of a copy of the repository', function () {
  this.timeout(600_000);
  let clone: string;
  before(function () {
    clone = mkdtempSync(join(tmpdir(), 'switchyard-clone-'));
    cloneRepository(clone);
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  it('builds with the rest, passes its tests there, and runs by config alone, no other file changed', async function () {
    expect(await main(['plugin', 'new', join(clone, 'plugins', 'notes'), '--system', 'NOTES'], {}, { out: () => {}, err: () => {} })).to.equal(0);

    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: clone, encoding: 'utf8' });
    expect(build.status, `${build.stdout}${build.stderr}`).to.equal(0);
    const tests = spawnSync(process.execPath, [join(clone, 'node_modules', 'mocha', 'bin', 'mocha.js'), 'plugins/notes/test/**/*.test.ts'], { cwd: clone, encoding: 'utf8' });
    expect(tests.status, `${tests.stdout}${tests.stderr}`).to.equal(0);
    expect(tests.stdout).to.contain('plugin contract: notes');
    expect(git(clone, 'status', '--porcelain', '--untracked-files=normal').trim()).to.equal('?? plugins/notes/');

    const data = mkdtempSync(join(tmpdir(), 'switchyard-clone-data-'));
    const config = join(data, 'config.json');
    writeFileSync(config, JSON.stringify({ plugins: { notes: { from: 'switchyard-plugin-notes', upstream: { url: 'simulator' }, titlePrefix: '> ' } } }));
    const key = 'sy_clone_test_key_0123456789abcdefghijklmnop';
    const { child, url } = await startService(clone, { SWITCHYARD_CONFIG: config, DATABASE_URL: `sqlite:${join(data, 'db.sqlite')}`, PORT: '0', SWITCHYARD_API_KEY: key, LOG_LEVEL: 'info' });
    try {
      const res = await fetch(`${url}/api/dispatch`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sheets-key': key }, body: JSON.stringify({ key: 'NOTES_CREATE_NOTE', body: { title: 'in tree' } }) });
      const answer = (await res.json()) as { ok: boolean; result: unknown; error?: unknown };
      expect(res.status, JSON.stringify(answer)).to.equal(200);
      expect(answer.result).to.deep.equal({ id: 'note_1', title: '> in tree', body: '' });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(data, { recursive: true, force: true });
    }
  });
});
