// Starting the service as `npm start` does, against a PostgreSQL database that does not exist:
// it stops with one clear line that says what to do, and no stack trace.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { PROJECT_ROOT } from '@switchyard/app';
import { PG_URL } from '../support/app.js';

/** Runs the service's entry point to its exit; resolves with its exit code and output. */
function runService(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--conditions=switchyard-source', '--import', 'tsx', 'adapters/app/src/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, stdout, stderr })));
}

if (PG_URL) {
  describe('start with a missing PostgreSQL database (postgres)', function () {
    this.timeout(60_000);

    it('stops with exit 1 and one line naming the database and saying to create it; no stack trace', async () => {
      const name = `sy_missing_${randomBytes(5).toString('hex')}`;
      const url = new URL(PG_URL!);
      url.pathname = `/${name}`;
      const { code, stdout, stderr } = await runService({ DATABASE_URL: url.toString() });
      expect(code).to.equal(1);
      const lines = stderr.trimEnd().split('\n');
      expect(lines, stderr).to.have.length(1);
      expect(lines[0]).to.match(/^switchyard: cannot start: cannot open the database postgres:\/\//);
      expect(lines[0]).to.contain(`database "${name}" does not exist`).and.contain(`create it first (createdb "${name}"`);
      if (url.password) expect(lines[0]).to.not.contain(`:${url.password}@`);
      expect(stdout + stderr).to.not.match(/^\s+at /m);
    });
  });
}
