// CPU time spent by processes during a benchmark phase (Linux /proc), so a ratio can be read as
// "where did the cycles go": the client, the service and the upstream, per request.
import { readFileSync } from 'node:fs';

/** user + system CPU milliseconds of a process so far (this process when pid is undefined). */
export function cpuMs(pid?: number): number {
  if (pid === undefined) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks of 10 ms; the name field may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Runs a phase and answers its result with the CPU ms per request each named process spent. */
export async function withCpu<T extends { requests: number }>(pids: Record<string, number | undefined>, phase: () => Promise<T>): Promise<T & { cpu_ms_per_request: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const result = await phase();
  const perRequest = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuMs(pid) - before[name]!) / Math.max(1, result.requests)) * 1000) / 1000]),
  );
  return { ...result, cpu_ms_per_request: perRequest };
}
