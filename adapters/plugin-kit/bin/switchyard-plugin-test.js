#!/usr/bin/env node
// Runs a plugin package's tests (test/**/*.test.ts) with mocha and tsx, both resolved from the kit,
// so a plugin needs no test tooling of its own. Extra arguments go to mocha.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const mocha = join(dirname(require.resolve('mocha/package.json')), 'bin', 'mocha.js');
const tsx = pathToFileURL(require.resolve('tsx')).href;

const args = process.argv.slice(2);
const result = spawnSync(
  process.execPath,
  [
    mocha,
    // switchyard-source: workspace packages (a checkout of Switchyard) load from their TypeScript source.
    '--node-option', 'conditions=switchyard-source',
    '--node-option', `import=${tsx}`,
    '--extension', 'ts',
    '--timeout', '30000',
    '--exit',
    ...(args.length ? args : ['test/**/*.test.ts']),
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
