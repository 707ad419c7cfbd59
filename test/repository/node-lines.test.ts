// What the README and docs/operations.md say of the Node.js lines holds for this lockfile: they quote
// `engines` as it is, and the EBADENGINE warnings they promise on Node 20 are the installed packages
// that admit no Node 20, counted and named.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';

const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');
const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = (JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> }).packages;

/**
 * Whether a node range admits no 20.x: each of its `||` alternatives starts from a major of 21 or
 * more (`>=22.15.0`, `^22`, `22`). Anything else counts as admitting 20, so an unusual range is
 * never taken for a warning npm would not print.
 */
function excludesNode20(range: string): boolean {
  return range.split('||').every((alternative) => {
    const m = /^\s*(?:>=|\^|~)?\s*v?(\d+)(?:\.[\dx*]+){0,2}\s*$/.exec(alternative);
    return m !== null && Number(m[1]) >= 21;
  });
}

/** Installed packages (by name) whose engines admit no Node 20. */
const needing22 = Object.entries(lock).flatMap(([path, entry]) => {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path)?.[1];
  const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
  return name && range && excludesNode20(range) ? [name] : [];
});

describe('repository: the Node.js lines as the README says them', function () {
  it('tells the ranges that admit no Node 20 from those that do', function () {
    expect(excludesNode20('>=22.15.0')).to.equal(true);
    expect(excludesNode20('>=22')).to.equal(true);
    expect(excludesNode20('^20.19.0 || >=22.12.0')).to.equal(false);
    expect(excludesNode20('18 || 20 || >=22')).to.equal(false);
    expect(excludesNode20('>=14.17')).to.equal(false);
    expect(excludesNode20(engines.node), 'our own engines admit 20, which CI runs the smoke on').to.equal(false);
  });

  it('quotes engines as package.json has it, in the README and in docs/operations.md', function () {
    for (const file of ['README.md', 'docs/operations.md']) expect(read(file), file).to.contain(`\`${engines.node}\``);
  });

  it('counts and names every dependency behind the EBADENGINE warnings on Node 20, none of them ours', function () {
    expect(needing22.filter((name) => name === 'switchyard' || name.startsWith('@switchyard/'))).to.deep.equal([]);
    const readme = read('README.md');
    const said = /On Node 20, `npm install` prints (\d+) `npm warn EBADENGINE` blocks/.exec(readme);
    expect(said, 'the README says how many').to.not.equal(null);
    expect(needing22, needing22.join(', ')).to.have.length(Number(said![1]));
    const otel = needing22.filter((name) => name.startsWith('@opentelemetry/'));
    expect(readme).to.contain(`${otel.length} OpenTelemetry packages`);
    for (const name of needing22.filter((n) => !n.startsWith('@opentelemetry/'))) expect(readme, name).to.contain(`\`${name}\``);
  });
});
