// Before any test file runs, once per mocha run (main process): bring the compiled project up to
// date (`npm run build`, tsc's incremental build: a second or two when nothing changed), and
// compile the test programs the suite starts as processes (COMPILED_ENTRIES) into
// node_modules/.cache/switchyard-test. The service processes and clients the tests start then run
// compiled JavaScript, as `npm start` does, instead of compiling with tsx at every start (tsx alone
// costs a client 1.8 s of CPU, the source a service 2 s more; the suite starts hundreds).
// SWITCHYARD_TEST_COMPILED=1 tells test/support so. If the build fails (a change that does not
// compile yet), the children run from source as before, and the typecheck says why.
'use strict';
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

exports.mochaGlobalSetup = function buildOnce() {
  if (process.env.SWITCHYARD_TEST_COMPILED !== undefined) return; // said by the caller (or a parent run)
  const root = join(__dirname, '..', '..');
  const started = Date.now();
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status === 0) {
    for (const entry of COMPILED_ENTRIES) transpile(root, entry);
    process.env.SWITCHYARD_TEST_COMPILED = '1';
    return;
  }
  process.env.SWITCHYARD_TEST_COMPILED = '0';
  process.stderr.write(`  the build failed (${Date.now() - started} ms), so the service processes tests start run from source:\n${(build.stdout + build.stderr).split('\n').slice(0, 20).join('\n')}\n`);
};

/** Test programs started as processes, compiled beside the cache's package.json (type: module). */
const COMPILED_ENTRIES = ['test/support/conformance-client.ts'];
const CACHE = join('node_modules', '.cache', 'switchyard-test');

/** Where a compiled test program is: its path under the cache, .ts made .js (test/support/conformance.ts names it). */
const compiledEntry = (root, entry) => join(root, CACHE, entry.replace(/\.ts$/, '.js'));

/**
 * Transpiles one entry and the files it imports by relative path (types are erased, nothing is
 * checked: the typecheck does that). Packages resolve from the project's node_modules, so ours load
 * their compiled dist.
 */
function transpile(root, entry, seen = new Set()) {
  const { mkdirSync, readFileSync, writeFileSync, renameSync } = require('node:fs');
  const { dirname, relative, resolve } = require('node:path');
  const ts = require('typescript');
  if (seen.has(entry)) return;
  seen.add(entry);
  const source = readFileSync(join(root, entry), 'utf8');
  const { outputText } = ts.transpileModule(source, { fileName: entry, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
  const out = compiledEntry(root, entry);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(join(root, CACHE, 'package.json'), '{ "type": "module" }\n');
  const temporary = `${out}.${process.pid}`;
  writeFileSync(temporary, outputText);
  renameSync(temporary, out);
  for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s*'(\.[^']+)'/gm)) {
    transpile(root, relative(root, resolve(dirname(join(root, entry)), specifier.replace(/\.js$/, '.ts'))), seen);
  }
}
