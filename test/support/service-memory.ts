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

/**
 * The answer-size probe both transports' tests use, against a service whose upstream has an
 * ANSWERS_BIG tool that answers `bytes` bytes: `dispatch` runs it, and `warm` runs it small and
 * waits for its integration; `grewBy` runs it oversized and answers how much the process's peak
 * resident memory grew (MB), having checked the run failed upstream_answer_too_large at the 8 MiB
 * bound with a small record.
 */
export function answerSizeProbe(serviceUrl: string, pid: number, apiKey: string, expect: Chai.ExpectStatic) {
  const headers = { 'content-type': 'application/json', 'x-sheets-key': apiKey };
  const dispatch = async (bytes: number) => {
    const res = await fetch(`${serviceUrl}/api/dispatch`, { method: 'POST', headers, body: JSON.stringify({ key: 'ANSWERS_BIG', body: { bytes } }) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; max_bytes?: number }; invocation: { id: string } } };
  };
  return {
    dispatch,
    /** The first call starts the connection and loads what a call needs, and its integration the leaf worker. */
    async warm(): Promise<void> {
      const warm = await dispatch(1000);
      expect(warm.status).to.equal(200);
      await integrated(serviceUrl, warm.body.invocation.id);
    },
    async grewBy(bytes: number): Promise<number> {
      const before = peakResident(pid);
      const answer = await dispatch(bytes);
      expect(answer.status).to.equal(502);
      expect(answer.body.error).to.include({ code: 'upstream_answer_too_large', max_bytes: 8 * 1024 * 1024 });
      const stored = await fetch(`${serviceUrl}/api/invocations/${answer.body.invocation.id}`, { headers: { 'x-sheets-key': apiKey } });
      expect((await stored.text()).length).to.be.below(4000);
      return (peakResident(pid) - before) / 1e6;
    },
  };
}
