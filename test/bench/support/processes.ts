// Child processes for benchmarks: the service and the upstream simulator run in their own
// processes, so the load generator does not share their event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '@switchyard/app';

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

// BENCH_NODE_ARGS passes extra flags to the children, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const NODE_ARGS = ['--conditions=switchyard-source', '--import', 'tsx', ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean)];

/** Spawns a TypeScript entry point and resolves with the first stdout line that `match` accepts. */
export function spawnTs<T>(entry: string, args: string[], env: NodeJS.ProcessEnv, match: (line: string) => T | undefined, timeoutMs = 30_000): Promise<{ child: Child; value: T }> {
  const proc = spawn(process.execPath, [...NODE_ARGS, entry, ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${entry} did not become ready in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    proc.once('exit', (code) => reject(new Error(`${entry} exited with ${code}\n${stderr}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const value = match(line);
      if (value !== undefined) {
        clearTimeout(timer);
        resolve({ child: { process: proc, stop }, value });
      }
    });
  });
}

/** The service's "switchyard listening" log line carries its URL. */
export const listeningUrl = (line: string): string | undefined => {
  try {
    const entry = JSON.parse(line) as { message?: string; url?: string };
    return entry.message === 'switchyard listening' ? entry.url : undefined;
  } catch {
    return undefined;
  }
};
