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

  it('core/src has no import cycles (type imports included): ports in one file each, records beside them', () => {
    expect(cyclesIn(join(root, 'core', 'src'))).to.deep.equal([]);
  });

  it('no adapter or plugin package has an import cycle among its files (type imports included)', () => {
    const packages = ['adapters', 'plugins'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name, 'src')));
    const cycles = packages.filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory()).flatMap((src) => cyclesIn(src).map((c) => `${relative(root, src)}: ${c}`));
    expect(cycles).to.deep.equal([]);
  });
});
