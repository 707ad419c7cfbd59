// The log's HTTP client for witnesses (c2sp.org/tlog-witness add-checkpoint): one POST of the text
// body, keep-alive as fetch does by default, answered within the configured time or abandoned.
import type { WitnessTransport } from '@switchyard/core';

export const fetchWitnessTransport: WitnessTransport = {
  async post(url, body, timeoutMs) {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'text/plain; charset=utf-8' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
  },
};
