#!/usr/bin/env node
// Runs the compiled CLI (dist/main.js, which npm install builds) in this process; in a checkout not
// built yet, its TypeScript source with the workspace's source condition under tsx (a dev
// dependency) in a child that gets this process's signals, so stopping the command stops the CLI.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'main.js');
if (existsSync(compiled)) {
  const { main } = await import(pathToFileURL(compiled).href);
  process.exitCode = await main(process.argv.slice(2), process.env);
} else {
  const args = ['--conditions=switchyard-source', '--import', 'tsx', join(root, 'src', 'main.ts'), ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
