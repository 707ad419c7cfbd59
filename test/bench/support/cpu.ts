// CPU time spent by processes during a benchmark phase (Linux /proc), so a ratio can be read as
// "where did the cycles go": the client, the service and the upstream, per request, and how much of
// each process's share was its main thread. CPU per request varies less from run to run than
// requests per second on a shared machine, so it is the better figure to compare changes by.
import { readdirSync, readFileSync } from 'node:fs';

/** user + system CPU milliseconds of a process so far (this process when pid is undefined). */
export function cpuMs(pid?: number): number {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * The same for the process's main thread alone, the one that runs its JavaScript event loop (the
 * rest is the database driver's thread pool, V8's garbage collection and compiler threads, workers).
 */
export const mainThreadCpuMs = (pid: number = process.pid): number => statCpuMs(`/proc/${pid}/task/${pid}/stat`);

function statCpuMs(path: string): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks of 10 ms; the name field may hold spaces.
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Runs a phase and answers its result with the CPU ms per request each named process spent, in all
 * and on its main thread.
 */
export async function withCpu<T extends { requests: number }>(
  pids: Record<string, number | undefined>,
  phase: () => Promise<T>,
): Promise<T & { cpu_ms_per_request: Record<string, number>; main_thread_ms_per_request: Record<string, number> }> {
  const named = Object.entries(pids);
  const before = named.map(([, pid]) => [cpuMs(pid), mainThreadCpuMs(pid)] as const);
  const result = await phase();
  const perRequest = (ms: number) => Math.round((ms / Math.max(1, result.requests)) * 1000) / 1000;
  return {
    ...result,
    cpu_ms_per_request: Object.fromEntries(named.map(([name, pid], i) => [name, perRequest(cpuMs(pid) - before[i]![0])])),
    main_thread_ms_per_request: Object.fromEntries(named.map(([name, pid], i) => [name, perRequest(mainThreadCpuMs(pid) - before[i]![1])])),
  };
}

/**
 * CPU milliseconds so far of each of a process's threads, summed by thread name (Linux names them:
 * "node" for the main thread, "libuv-worker" for the pool the database driver runs on, "V8
 * DefaultWorke" for the collector and compiler, a worker thread by its own name). Threads that
 * ended before the reading are not counted.
 */
export function threadCpuMs(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let name = '?';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (tid === String(pid)) name = 'main';
    const ms = statCpuMs(`/proc/${pid}/task/${tid}/stat`);
    if (!Number.isNaN(ms)) out[name] = (out[name] ?? 0) + ms;
  }
  return out;
}
