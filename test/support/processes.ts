// Child processes for benchmarks and crash tests: the service and the upstream simulator run in
// their own processes, so the load generator does not share their event loop, and a test can
// kill -9 the service for real.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PROJECT_ROOT } from '@switchyard/app';

export interface Child {
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
  /** SIGKILL now: no shutdown hooks run. */
  kill(): Promise<void>;
}

// How long a child may take to say it is ready: SWITCHYARD_START_TIMEOUT_MS raises it for a
// benchmark on a machine so loaded that tsx takes longer than that to compile the service.
const START_TIMEOUT_MS = Number(process.env['SWITCHYARD_START_TIMEOUT_MS'] ?? 30_000);

// BENCH_NODE_ARGS passes extra flags to the children, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const NODE_ARGS = ['--conditions=switchyard-source', '--import', 'tsx', ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean)];

/** Spawns a TypeScript entry point (relative to `root`, the project by default) and resolves with the first stdout line that `match` accepts. */
/** Stops a child: SIGTERM, then SIGKILL if it has not exited after 5 s; at once if it already has. */
export async function stopChild(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export function spawnTs<T>(entry: string, args: string[], env: NodeJS.ProcessEnv, match: (line: string) => T | undefined, timeoutMs = START_TIMEOUT_MS, nodeArgs: string[] = [], root = PROJECT_ROOT): Promise<{ child: Child; value: T }> {
  return spawnNode([...NODE_ARGS, ...nodeArgs, entry, ...args], entry, env, match, timeoutMs, root);
}

/** Spawns node with `argv` (no tsx: compiled JavaScript) and resolves as spawnTs does. */
export function spawnNode<T>(argv: string[], entry: string, env: NodeJS.ProcessEnv, match: (line: string) => T | undefined, timeoutMs = START_TIMEOUT_MS, root = PROJECT_ROOT): Promise<{ child: Child; value: T }> {
  const proc = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = (): Promise<void> => stopChild(proc);
  const kill = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGKILL');
    await exited;
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
        resolve({ child: { process: proc, stop, kill }, value });
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

/**
 * Whether a child of this checkout runs the compiled service: in the test suite, once its global
 * setup has built the project (test/support/build-once.cjs); never in a benchmark, whose "before"
 * and "after" must start alike, nor with extra node flags, which may name TypeScript to preload.
 */
const runsCompiled = (nodeArgs: string[], root: string): boolean =>
  process.env['SWITCHYARD_TEST_COMPILED'] === '1' && root === PROJECT_ROOT && nodeArgs.length === 0 && !process.env['BENCH_NODE_ARGS'];

/**
 * Starts the service on a free port and resolves with its URL: compiled in the test suite (above),
 * else adapters/app/src/main.ts through tsx; `nodeArgs` go to node after tsx; `root` runs another
 * checkout of the project (a benchmark's "before").
 */
export async function startServiceProcess(env: NodeJS.ProcessEnv, nodeArgs: string[] = [], root = PROJECT_ROOT): Promise<{ child: Child; url: string }> {
  if (runsCompiled(nodeArgs, root)) return startCompiledServiceProcess(env);
  const { child, value } = await spawnTs('adapters/app/src/main.ts', [], { PORT: '0', LOG_LEVEL: 'info', ...env }, listeningUrl, START_TIMEOUT_MS, nodeArgs, root);
  return { child, url: value };
}

/** A worker's "switchyard working" log line (it serves no HTTP, so it has no URL). */
export const workingLine = (line: string): true | undefined => {
  try {
    const entry = JSON.parse(line) as { message?: string };
    return entry.message === 'switchyard working' ? true : undefined;
  } catch {
    return undefined;
  }
};

/** Starts a worker process (SWITCHYARD_ROLE=worker) and resolves once its background work runs. */
export async function startWorkerProcess(env: NodeJS.ProcessEnv, root = PROJECT_ROOT): Promise<Child> {
  if (runsCompiled([], root)) return startCompiledWorkerProcess(env);
  const { child } = await spawnTs('adapters/app/src/main.ts', [], { LOG_LEVEL: 'info', ...env, SWITCHYARD_ROLE: 'worker' }, workingLine, START_TIMEOUT_MS, [], root);
  return child;
}

/** The compiled service (`npm run build` first), as `npm start` runs it: plain node, no tsx. */
const COMPILED_MAIN = 'adapters/app/dist/main.js';

/** Starts the compiled service on a free port and resolves with its URL. */
export async function startCompiledServiceProcess(env: NodeJS.ProcessEnv): Promise<{ child: Child; url: string }> {
  const { child, value } = await spawnNode([COMPILED_MAIN], COMPILED_MAIN, { PORT: '0', LOG_LEVEL: 'info', ...env }, listeningUrl);
  return { child, url: value };
}

/** Starts a compiled worker process (SWITCHYARD_ROLE=worker). */
export async function startCompiledWorkerProcess(env: NodeJS.ProcessEnv): Promise<Child> {
  const { child } = await spawnNode([COMPILED_MAIN], COMPILED_MAIN, { LOG_LEVEL: 'info', ...env, SWITCHYARD_ROLE: 'worker' }, workingLine);
  return child;
}
