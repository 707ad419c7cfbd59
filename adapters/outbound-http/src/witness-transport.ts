// The log's HTTP client for witnesses (c2sp.org/tlog-witness add-checkpoint): one POST of the text
// body, keep-alive as fetch does by default, answered within the configured time or abandoned. An
// answer is a few signature lines: reading stops past 64 KiB, so a witness cannot flood the log.
import type { WitnessTransport } from '@switchyard/core';

const MAX_ANSWER_BYTES = 64 * 1024;

export const fetchWitnessTransport: WitnessTransport = {
  async post(url, body, timeoutMs) {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'text/plain; charset=utf-8' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) break;
      total += next.value.length;
      if (total > MAX_ANSWER_BYTES) {
        await reader!.cancel();
        throw new Error(`answered more than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(next.value);
    }
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.concat(chunks).toString('utf8') };
  },
};
