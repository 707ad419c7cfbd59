// The reference MCP server (@modelcontextprotocol/server-everything) for import tests: its stdio
// entry, and its streamable HTTP mode started as a child process on a free loopback port.
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { freePort } from './free-port.js';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';

export const EVERYTHING_BIN = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const LISTING_FIXTURE = join(PROJECT_ROOT, 'test', 'support', 'listing-mcp-server.mjs');
export const CHANGING_FIXTURE = join(PROJECT_ROOT, 'test', 'support', 'changing-mcp-server.mjs');

export { freePort };

export interface EverythingHttp {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `index.js streamableHttp` listens on PORT and serves MCP at /mcp; `index.js sse` serves its
 * stream at /sse. Resolves once the server says it listens.
 */
export async function startEverythingHttp(port?: number, mode: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<EverythingHttp> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_BIN, mode], { env: { ...process.env, PORT: String(chosen) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${said}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/(listening|running) on port/i.test(said)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${said}`));
    });
  });
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${chosen}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    port: chosen,
    child,
    stop: () => stopChild(child),
  };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  await exited;
}

/** Pids of this process's children whose command line contains `needle` (the stdio upstreams we start). */
export function childPids(needle: string): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(needle))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** Kills a process by pid and waits until it is gone. */
export async function killAndWait(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`process ${pid} did not exit`);
}
