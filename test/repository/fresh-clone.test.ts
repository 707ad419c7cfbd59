// A user's clone has nothing beside it: no shared folder, no file of the machine that wrote it.
// This suite clones the repository into an empty temporary folder and runs the core and verifier
// suites there (the verifier's reads the vectors),
// and checks that no tracked file names a path outside the repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const git = (args: string[], cwd = ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe('repository: a fresh clone stands on its own', function () {
  this.timeout(180_000);
  let home: string;
  let clone: string;

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'switchyard-clone-'));
    clone = join(home, 'switchyard');
    git(['clone', '--quiet', '--no-hardlinks', ROOT, clone], home);
    // Installed packages are not part of a clone; the user's `npm install` makes them. Linking this
    // checkout's keeps the test on loopback; workspace links inside it resolve into this checkout,
    // which the suites use only for @switchyard/verifier (core's one package of ours), whose own
    // suite runs here from the clone's sources and vectors.
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  it('has nothing beside it', () => {
    expect(readdirSync(home)).to.deep.equal(['switchyard']);
    expect(existsSync(join(clone, 'test', 'vectors', 'NOTICE'))).to.equal(true);
  });

  it('passes the core and verifier suites, vectors included, with no environment pointing outside', () => {
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('SWITCHYARD_')) delete env[name];
    const run = spawnSync(join(clone, 'node_modules', '.bin', 'mocha'), ['--reporter', 'dot', 'core/test/**/*.test.ts', 'adapters/verifier/test/**/*.test.ts'], { cwd: clone, env, encoding: 'utf8' });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).to.equal(0);
    const passing = /(\d+) passing/.exec(out);
    expect(passing, out).to.not.equal(null);
    // The vector cases alone are over two hundred tests; a suite that found none would be far smaller.
    expect(Number(passing![1])).to.be.greaterThan(300);
    expect(out).to.not.match(/failing|pending/);
  });

  it('names no path outside the repository in any tracked file', () => {
    const hits = spawnSync('git', ['grep', '-nE', String.raw`\.\./shared|SWITCHYARD_VECTORS[_]DIR|\/work\/|\/home\/[a-z]|\/Users\/[A-Za-z]`, '--', '.', ':!package-lock.json'], { cwd: clone, encoding: 'utf8' });
    expect(hits.stdout, hits.stdout).to.equal('');
  });
});
