#!/usr/bin/env node
// A plugin package's prepare script (which npm install runs): tsc -p tsconfig.json with the
// plugin's own TypeScript, src/ to dist/, which the compiled service (npm start) loads. In plugins/
// of a Switchyard checkout, an npm install at the checkout's root runs this before the kit is
// compiled, and the root's own prepare (tsc -b tsconfig.build.json plugins/*) compiles every plugin
// after the kit; so run by that install, it leaves the build to the root.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const folder = process.cwd();
// npm sets INIT_CWD to the folder it was run in.
const root = process.env.INIT_CWD ? resolve(process.env.INIT_CWD) : '';

function builtByCheckoutRoot() {
  if (!root || dirname(folder) !== join(root, 'plugins')) return false;
  try {
    const { scripts = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    return /\bplugins\/\*/.test(scripts.build ?? '');
  } catch {
    return false;
  }
}

if (builtByCheckoutRoot()) {
  console.log('switchyard-plugin-build: left to the checkout root\'s npm run build, which compiles plugins/* after the kit');
  process.exit(0);
}

let tsc;
try {
  tsc = createRequire(join(folder, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  console.error('switchyard-plugin-build: no TypeScript here; add it to devDependencies (npm install -D typescript)');
  process.exit(1);
}
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
