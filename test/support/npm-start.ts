// The service started the way `npm start` starts it: the start script's node arguments, read from
// the checkout's package.json, run by the Node that runs the test, in a child process whose
// environment has no SWITCHYARD_* variable but those given (so a first start generates the key).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface StartedService {
  process: ChildProcess;
  url: string;
  /** The owner's key, as the first start printed it ('' when none was printed). */
  apiKey: string;
  /** Every stdout line so far (log lines are JSON). */
  stdout: string[];
  stderr(): string;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** The node arguments of `npm start` in `root` (the script must be `exec node …`). */
export function npmStartArgs(root: string): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const command = /^exec node (.+)$/.exec(script);
  if (!command) throw new Error(`npm start is not "exec node …": ${script}`);
  return command[1]!.split(/\s+/);
}

/** The environment without SWITCHYARD_* variables, plus `env`. */
export const cleanEnv = (env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SWITCHYARD_'))),
  ...env,
});

/** Starts `npm start`'s command in `root` on a free port and waits for the "switchyard listening" line. */
export function npmStart(root: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<StartedService> {
  const child = spawn(process.execPath, npmStartArgs(root), { cwd: root, env: cleanEnv({ PORT: '0', LOG_LEVEL: 'info', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stdout: string[] = [];
  const stop = (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    return exited.finally(() => clearTimeout(timer));
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start in ${timeoutMs} ms\n${stdout.join('\n')}\n${stderr}`));
    }, timeoutMs);
    const exited = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`the service exited with ${code}\n${stdout.join('\n')}\n${stderr}`));
    };
    child.once('exit', exited);
    let apiKey = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      apiKey ||= /^\s*SWITCHYARD_API_KEY=(sy_\S+)$/.exec(line)?.[1] ?? '';
      let entry: { message?: string; url?: string } = {};
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.message === 'switchyard listening' && entry.url) {
        clearTimeout(timer);
        child.off('exit', exited);
        resolve({ process: child, url: entry.url, apiKey, stdout, stderr: () => stderr, stop });
      }
    });
  });
}
