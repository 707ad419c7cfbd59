// What a bulk retry of a destination names: its dead jobs, those received in a time range, or
// named delivery entries (dead or delivered).
import { SwitchyardError } from '../errors.js';
import type { RetrySelector } from './ports.js';

const DELIVERY_ENTRY = /^dlv_[A-Za-z0-9]{20}$/;

export function readRetrySelector(payload: unknown): RetrySelector {
  const hint = 'send {"state": "dead"}, {"from": ISO time, "to": ISO time} or {"entries": ["dlv_…"]}';
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SwitchyardError('invalid_request', hint);
  const p = payload as Record<string, unknown>;
  const keys = Object.keys(p).sort().join(',');
  if (keys === 'state') {
    if (p['state'] !== 'dead') throw new SwitchyardError('invalid_request', `state: only "dead" can be retried; ${hint}`, { field: 'state' });
    return { state: 'dead' };
  }
  if (keys === 'from,to') {
    for (const f of ['from', 'to']) {
      if (typeof p[f] !== 'string' || Number.isNaN(Date.parse(p[f] as string))) throw new SwitchyardError('invalid_request', `${f}: must be an ISO 8601 time`, { field: f });
    }
    return { from: new Date(p['from'] as string).toISOString(), to: new Date(p['to'] as string).toISOString() };
  }
  if (keys === 'entries') {
    const e = p['entries'];
    if (!Array.isArray(e) || e.length === 0 || e.length > 1000 || !e.every((x) => typeof x === 'string' && DELIVERY_ENTRY.test(x))) {
      throw new SwitchyardError('invalid_request', 'entries: must be 1 to 1000 delivery entry ids (dlv_…)', { field: 'entries' });
    }
    return { entries: e as string[] };
  }
  throw new SwitchyardError('invalid_request', hint);
}
