// The leaf-building worker thread starts in every service that integrates its ledger, so what it
// loads is paid at every start: it connects and builds leaves, and must not load core's barrel (the
// whole domain: schemas, transforms, search) or the migrations. Read from the source: the modules
// its entry reaches through value imports (type imports are erased), following our packages' subpaths.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');
const ENTRY = join(ROOT, 'adapters', 'storage-knex', 'src', 'leaf-worker-thread.ts');

/** The specifiers a file imports for values: `import type` and all-type `{ type A, type B }` lists left out. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(?!type\b)([^;]*?)\s*from\s*'([^']+)'/gm)]
    .filter(([, names]) => !/^\{[^}]*\}$/.test(names!.trim()) || names!.replace(/[{}]/g, '').split(',').some((n) => n.trim() !== '' && !n.trim().startsWith('type ')))
    .map((m) => m[2]!);
}

/** Our package `@switchyard/<name>[/<sub>]` as its source file, by its package.json's switchyard-source export. */
function ourPackage(specifier: string): string | undefined {
  const m = /^@switchyard\/([^/]+)(?:\/(.+))?$/.exec(specifier);
  if (!m) return undefined;
  for (const dir of [join(ROOT, m[1]!), join(ROOT, 'adapters', m[1]!)]) {
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg) || (JSON.parse(readFileSync(pkg, 'utf8')) as { name: string }).name !== `@switchyard/${m[1]}`) continue;
    const exports = (JSON.parse(readFileSync(pkg, 'utf8')) as { exports: Record<string, { 'switchyard-source': string }> }).exports;
    const entry = exports[m[2] ? `./${m[2]}` : '.'];
    if (!entry) throw new Error(`${specifier} is not exported by ${relative(ROOT, pkg)}`);
    return join(dir, entry['switchyard-source']);
  }
  return undefined;
}

function reached(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of valueImports(file)) {
      const next = specifier.startsWith('.') ? resolve(dirname(file), specifier).replace(/\.js$/, '.ts') : ourPackage(specifier);
      if (next) visit(existsSync(next) ? next : join(next.replace(/\.ts$/, ''), 'index.ts'));
    }
  };
  visit(entry);
  return new Set([...seen].map((f) => relative(ROOT, f)));
}

describe('storage-knex: what the leaf-building worker thread loads', () => {
  const files = reached(ENTRY);

  it("reaches core only through the light subpaths, never core's barrel", () => {
    expect([...files].filter((f) => f.startsWith('core/')).sort()).to.deep.equal(['core/src/errors.ts', 'core/src/ledger-paging.ts', 'core/src/ledger/erasure.ts', 'core/src/ledger/ledger-leaf.ts']);
  });

  it('loads no migration, no HTTP face and nothing of the app', () => {
    expect([...files].filter((f) => /migrations|database\.ts$|adapters\/(?!storage-knex|verifier)/.test(f))).to.deep.equal([]);
    expect(files.has('adapters/storage-knex/src/database-url.ts')).to.equal(true);
  });
});
