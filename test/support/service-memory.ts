// Reading a service process's memory for the answer-size tests: its peak resident set from /proc,
// and a warm-up that waits until the ledger's leaf-building worker has started. That worker
// (a thread, and from source a second one for tsx's module hooks) starts with the first
// integration and adds 40 to 80 MB of resident memory: started during a measured call, it would
// be counted as that call's cost.
import { readFileSync } from 'node:fs';

/** Peak resident memory of a process, in bytes (Linux /proc). */
export function peakResident(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** Waits until the service has integrated the run (so its leaf worker is up). */
export async function integrated(serviceUrl: string, invocationId: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const answer = (await (await fetch(`${serviceUrl}/api/dispatch?confirm=${invocationId}`)).json()) as { status?: string };
    if (answer.status === 'integrated') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${invocationId} was not integrated within 30 s`);
}
