// The dependency rule (docs/architecture.md, "The dependency rule"): core imports no adapter library;
// adapters and plugins never get imported by core; plugins import only the plugin kit; the HTTP
// faces never import each other, only the small http-kit they share.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);

/** The import cycles among the files of `src` (type imports included), each as a -> b -> a. */
function cyclesIn(src: string): string[] {
  const edges = new Map(sourceFiles(src).map((f) => [f, importsOf(f).filter((i) => i.startsWith('.')).map((i) => resolve(dirname(f), i).replace(/\.js$/, '.ts'))]));
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    if (path.includes(file)) {
      cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(src, f)).join(' -> '));
      return;
    }
    if (done.has(file)) return;
    for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of edges.keys()) visit(file, []);
  return cycles;
}

describe('architecture: the dependency rule', () => {
  // The verifier is the one package of ours core builds on: it has no dependency at all (below).
  const FORBIDDEN_IN_CORE = /^(express|knex|pg|sqlite3|inversify|supertest|node:http|node:https|http|https|node:net|node:child_process|child_process|node:worker_threads|worker_threads|@modelcontextprotocol\/sdk.*|@switchyard\/(?!core$|verifier$).*)$/;

  it('the verifier imports nothing but Node built-ins and its own files, and declares no dependency', () => {
    // Module specifiers of import/export statements and import() (importsOf also reads Buffer.from('…')).
    const specifiers = (f: string) => [...readFileSync(f, 'utf8').matchAll(/^(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? m[2] ?? m[3]!);
    const offenders = sourceFiles(join(root, 'adapters', 'verifier', 'src')).flatMap((f) => specifiers(f).filter((i) => !i.startsWith('node:') && !i.startsWith('./')).map((i) => `${f}: ${i}`));
    expect(offenders).to.deep.equal([]);
    const pkg = JSON.parse(readFileSync(join(root, 'adapters', 'verifier', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg['dependencies'] ?? {}).to.deep.equal({});
  });

  it('core/src imports no adapter library and no other package of ours', () => {
    const offenders = sourceFiles(join(root, 'core', 'src')).flatMap((f) => importsOf(f).filter((i) => FORBIDDEN_IN_CORE.test(i)).map((i) => `${f}: ${i}`));
    expect(offenders).to.deep.equal([]);
  });

  it('plugins import only the plugin kit of our packages (as a plugin outside this repository does), never storage, HTTP or the app', () => {
    const offenders = sourceFiles(join(root, 'plugins')).flatMap((f) =>
      importsOf(f).filter((i) => (/^@switchyard\//.test(i) && !/^@switchyard\/plugin-kit(\/(testing|simulator))?$/.test(i) && !(f.includes('/test/') && /^@switchyard\/core$/.test(i))) || /^(knex|pg|sqlite3|express)$/.test(i) || /^(\.\.\/){3}/.test(i)).map((i) => `${f}: ${i}`),
    );
    expect(offenders).to.deep.equal([]);
  });

  it('adapters never reach into another package through a relative path', () => {
    const offenders = sourceFiles(join(root, 'adapters')).filter((f) => f.includes('/src/')).flatMap((f) =>
      importsOf(f).filter((i) => /^\.\.\/\.\.\//.test(i)).map((i) => `${f}: ${i}`),
    );
    expect(offenders).to.deep.equal([]);
  });

  const FACES = ['http-api', 'http-mcp', 'http-oauth', 'web-dashboard', 'web-content'];
  const packageImports = (dir: string): Array<{ file: string; spec: string }> =>
    sourceFiles(join(root, 'adapters', dir, 'src')).flatMap((file) => importsOf(file).map((spec) => ({ file, spec })));

  it('the HTTP faces never import each other (nor does http-kit import a face): they share only http-kit', () => {
    const offenders = [...FACES, 'http-kit'].flatMap((face) =>
      packageImports(face)
        .filter(({ spec }) => FACES.some((other) => other !== face && (spec === `@switchyard/${other}` || spec.startsWith(`@switchyard/${other}/`))))
        .map(({ file, spec }) => `${relative(root, file)}: ${spec}`),
    );
    expect(offenders).to.deep.equal([]);
    // Their manifests say the same: no face depends on another.
    const declared = [...FACES, 'http-kit'].flatMap((face) => {
      const deps = Object.keys((JSON.parse(readFileSync(join(root, 'adapters', face, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {});
      return deps.filter((d) => FACES.some((other) => other !== face && d === `@switchyard/${other}`)).map((d) => `${face}: ${d}`);
    });
    expect(declared).to.deep.equal([]);
  });

  it('core/src has no import cycles (type imports included), so its concept folders are layered: none imports one that imports it', () => {
    expect(cyclesIn(join(root, 'core', 'src'))).to.deep.equal([]);
  });

  it('no adapter or plugin package has an import cycle among its files (type imports included)', () => {
    const packages = ['adapters', 'plugins'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name, 'src')));
    const cycles = packages.filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory()).flatMap((src) => cyclesIn(src).map((c) => `${relative(root, src)}: ${c}`));
    expect(cycles).to.deep.equal([]);
  });

  // core by concept (docs/architecture.md, "core by concept"): each folder of core/src is one concept;
  // the files at the top are the shared kernel every concept may use.
  const coreSrc = join(root, 'core', 'src');
  const conceptOf = (file: string): string | null => {
    const rel = relative(coreSrc, file);
    return rel.includes('/') ? rel.split('/')[0]! : null;
  };

  it("core/src: the kernel at the top imports no concept folder; every concept has its index.ts, and its ports (an interface and its same-named token) in its ports.ts", () => {
    const kernel = readdirSync(coreSrc).filter((name) => name.endsWith('.ts') && name !== 'index.ts').map((name) => join(coreSrc, name));
    const upward = kernel.flatMap((f) => importsOf(f).filter((i) => i.startsWith('.') && conceptOf(resolve(dirname(f), i)) !== null).map((i) => `${relative(root, f)}: ${i}`));
    expect(upward).to.deep.equal([]);
    const concepts = readdirSync(coreSrc).filter((name) => statSync(join(coreSrc, name)).isDirectory());
    expect(concepts.length).to.be.greaterThan(8);
    expect(concepts.filter((c) => !statSync(join(coreSrc, c, 'index.ts'), { throwIfNoEntry: false })?.isFile())).to.deep.equal([]);
    const strayPorts = sourceFiles(coreSrc)
      .filter((f) => conceptOf(f) !== null && !f.endsWith('/ports.ts'))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^export const (\w+) = Symbol\.for\('switchyard\.(\w+)'\)/gm)].filter((m) => m[1] === m[2]).map((m) => `${relative(root, f)}: ${m[1]}`));
    expect(strayPorts).to.deep.equal([]);
  });

  it("core/src: concept folders meet only through each other's index.ts, so each folder's insides can change alone", () => {
    const offenders = sourceFiles(coreSrc).flatMap((f) => {
      const own = conceptOf(f);
      if (own === null) return [];
      return importsOf(f)
        .filter((i) => i.startsWith('.'))
        .filter((i) => {
          const target = resolve(dirname(f), i).replace(/\.js$/, '.ts');
          const other = conceptOf(target);
          return other !== null && other !== own && relative(join(coreSrc, other), target) !== 'index.ts';
        })
        .map((i) => `${relative(root, f)}: ${i}`);
    });
    expect(offenders).to.deep.equal([]);
  });

  it('core/test mirrors the concept folders of core/src', () => {
    const concepts = new Set(readdirSync(coreSrc).filter((name) => statSync(join(coreSrc, name)).isDirectory()));
    const testFolders = readdirSync(join(root, 'core', 'test')).filter((name) => statSync(join(root, 'core', 'test', name)).isDirectory());
    expect(testFolders.filter((name) => !concepts.has(name))).to.deep.equal([]);
  });

  it('adapters/mcp is two rooms, server/ (the faces Switchyard serves) and upstream/ (the client of upstream servers): neither imports the other, both may use the files at the top', () => {
    const mcpSrc = join(root, 'adapters', 'mcp', 'src');
    const roomOf = (file: string): string | null => (relative(mcpSrc, file).includes('/') ? relative(mcpSrc, file).split('/')[0]! : null);
    const rooms = readdirSync(mcpSrc).filter((name) => statSync(join(mcpSrc, name)).isDirectory()).sort();
    expect(rooms).to.deep.equal(['server', 'upstream']);
    const crossings = sourceFiles(mcpSrc).flatMap((f) =>
      importsOf(f)
        .filter((i) => i.startsWith('.'))
        .filter((i) => {
          const own = roomOf(f);
          const other = roomOf(resolve(dirname(f), i));
          return own !== null && other !== null && other !== own;
        })
        .map((i) => `${relative(root, f)}: ${i}`),
    );
    expect(crossings).to.deep.equal([]);
  });
});
