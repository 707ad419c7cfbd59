// `npm test` names its files by globs in an order: the files that start browsers, clones, the
// conformance suites and many processes first, so the parallel run does not end on one long file
// while the other workers idle; the quick ones last, filling the gaps. The globs must still name
// every test file of the repository exactly once, and `test:quick` only files `npm test` runs.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { globSync } from 'glob';
import { PROJECT_ROOT } from '@switchyard/app';

const scripts = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** The files a script's quoted globs name, in order, as mocha expands them (glob, the library it uses). */
const filesOf = (script: string): string[] =>
  [...script.matchAll(/'([^']+)'/g)].flatMap((m) => globSync(m[1]!, { cwd: PROJECT_ROOT, posix: true }).sort());

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [relative(PROJECT_ROOT, path)] : [];
  });
}

describe('repository: the files npm test runs', () => {
  const suite = filesOf(scripts['test']!);

  it('names every test file of the repository exactly once', () => {
    const all = ['core', 'adapters', 'plugins', 'test'].flatMap((dir) => testFiles(join(PROJECT_ROOT, dir))).sort();
    expect(all.length).to.be.greaterThan(150);
    expect([...suite].sort()).to.deep.equal(all);
  });

  it('starts the long files first: the browser, repository, conformance and multiprocess files before core and the adapters', () => {
    const first = (pattern: RegExp) => suite.findIndex((f) => pattern.test(f));
    const last = (pattern: RegExp) => suite.length - 1 - [...suite].reverse().findIndex((f) => pattern.test(f));
    expect(last(/^test\/(browser|repository)\/|conformance|inspector|multiprocess/)).to.be.below(first(/^test\/integration\/(?!.*(conformance|inspector|multiprocess|snippets))/));
    expect(last(/^test\//)).to.be.below(first(/^(core|adapters|plugins)\//));
  });

  it('test:quick runs only files of the suite, none of which starts a service process or a browser', () => {
    const quick = filesOf(scripts['test:quick']!);
    expect(quick.length).to.be.greaterThan(60);
    expect(quick.filter((f) => !suite.includes(f))).to.deep.equal([]);
    expect(quick.filter((f) => /^test\/(integration|browser|repository)\/|^adapters\/cli\//.test(f))).to.deep.equal([]);
  });
});
