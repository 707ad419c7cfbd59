#!/usr/bin/env node
// Runs the compiled CLI (dist/main.js, which npm install builds); in a checkout not built yet, its
// TypeScript source with the workspace's source condition under tsx (a dev dependency).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'main.js');
const args = existsSync(compiled)
  ? [compiled, ...process.argv.slice(2)]
  : ['--conditions=switchyard-source', '--import', 'tsx', join(root, 'src', 'main.ts'), ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? (result.signal ? 1 : 0));
