// What `switchyard plugin new` writes, read as npm, tsc and the compiled service read it: the package
// points at the JavaScript its tsconfig compiles, builds on install with the kit's command, and asks
// for the tools this repository builds with (so in its plugins/ the root install adds none).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { BUILD_TOOLS, pluginFiles } from '../src/plugin-template/files.js';

interface Manifest {
  main?: string;
  types?: string;
  exports?: Record<string, Record<string, string>>;
  files?: string[];
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(PROJECT_ROOT, path), 'utf8')) as T;

for (const simulator of [true, false]) {
  describe(`adapter cli: the plugin template (${simulator ? 'tool with a simulator' : 'fn'})`, function () {
    const files = pluginFiles({ name: 'notes', system: 'NOTES', packageName: 'switchyard-plugin-notes', kit: '^0.1.0', simulator });
    const pkg = JSON.parse(files['package.json']!) as Manifest;
    const tsconfig = JSON.parse(files['tsconfig.json']!) as { compilerOptions: Record<string, unknown>; include: string[] };

    it('compiles src/ to dist/, declarations included, and nothing else', function () {
      expect(tsconfig.compilerOptions).to.include({ rootDir: 'src', outDir: 'dist', declaration: true });
      expect(tsconfig.compilerOptions).to.not.have.property('noEmit');
      // The kit is read from its declarations, never compiled into the plugin.
      expect(tsconfig.compilerOptions).to.not.have.property('customConditions');
      expect(tsconfig.include).to.deep.equal(['src']);
    });

    it('points main, types and exports at that JavaScript, and only a checkout\'s source condition at src/', function () {
      expect(files['src/index.ts'], 'the entry it compiles').to.be.a('string');
      expect(pkg).to.include({ main: './dist/index.js', types: './dist/index.d.ts' });
      const entry = pkg.exports!['.']!;
      expect(entry).to.deep.equal({ 'switchyard-source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' });
      // Node takes the first condition that matches: plain Node (npm start) must reach default.
      expect(Object.keys(entry).at(-1)).to.equal('default');
      expect(pkg.files).to.include('dist');
    });

    it('builds on install with the kit\'s build command and tests with its contract suite', function () {
      const kit = readJson<Manifest>('adapters/plugin-kit/package.json');
      expect(pkg.scripts).to.deep.equal({ build: 'tsc', prepare: 'switchyard-plugin-build', test: 'switchyard-plugin-test' });
      expect(kit.bin).to.have.keys('switchyard-plugin-build', 'switchyard-plugin-test');
      expect(kit.files).to.include('bin');
      expect(pkg.dependencies).to.deep.equal({ '@switchyard/plugin-kit': '^0.1.0' });
    });

    it('asks for the TypeScript and Node types this repository builds with', function () {
      const root = readJson<Manifest>('package.json');
      expect(pkg.devDependencies).to.deep.equal(BUILD_TOOLS);
      for (const [name, range] of Object.entries(BUILD_TOOLS)) expect(root.devDependencies?.[name], name).to.equal(range);
    });
  });
}
