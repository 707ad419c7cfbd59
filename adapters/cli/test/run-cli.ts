// Runs the real `switchyard` command in a child process against a service, with the owner's key,
// and answers its exit code and output whether it succeeded or not.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY } from '../../../test/support/app.js';

export const BIN = join(PROJECT_ROOT, 'adapters', 'cli', 'bin', 'switchyard.js');
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(url: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_API_KEY: TEST_API_KEY, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
