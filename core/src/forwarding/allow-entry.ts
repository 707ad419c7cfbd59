// An allowlist entry for destinations on internal addresses: "host" (a name or an address) admits
// that host on ports 80 and 443 only; "host:port" (or "[v6]:port") on that port. Entries come from
// the configuration (webhooks.forwarding.allow) and, at run time, from the owner (kept in the database).
import { SwitchyardError } from '../errors.js';

export interface AllowEntry {
  /** As given, in lower case: what is listed and deleted. */
  entry: string;
  host: string;
  /** The ports it admits. */
  ports: number[];
}

const ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]{1,253})(?::(\d{1,5}))?$/;

/** Parses an entry; null when it is not host or host:port. */
export function parseAllowEntry(raw: string): AllowEntry | null {
  const entry = raw.trim().toLowerCase();
  const m = ENTRY.exec(entry);
  if (!m) return null;
  const host = m[1]!.replace(/^\[|\]$/g, '');
  if (m[2] === undefined) return { entry, host, ports: [80, 443] };
  const port = Number(m[2]);
  if (port < 1 || port > 65_535) return null;
  return { entry, host, ports: [port] };
}

/** Checks a request naming an entry: {host: "host" | "host:port"}. */
export function readAllowRequest(payload: unknown): AllowEntry {
  const hint = 'send {"host": "orders.internal"} (ports 80 and 443) or {"host": "10.0.0.5:8080"} ("[::1]:9000" for an IPv6 address)';
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new SwitchyardError('invalid_request', hint);
  const p = payload as Record<string, unknown>;
  const extra = Object.keys(p).filter((k) => k !== 'host');
  if (extra.length > 0) throw new SwitchyardError('invalid_request', `${extra[0]}: is not an allowlist field; ${hint}`, { field: extra[0]! });
  const parsed = typeof p['host'] === 'string' && p['host'].length <= 300 ? parseAllowEntry(p['host']) : null;
  if (!parsed) throw new SwitchyardError('invalid_request', `host: ${hint}`, { field: 'host' });
  return parsed;
}
