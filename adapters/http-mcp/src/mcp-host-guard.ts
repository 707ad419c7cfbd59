// DNS-rebinding guard of the MCP faces: a browser page on another site can make a local MCP server
// answer it by pointing its own name at 127.0.0.1. So every /mcp request's Host (and Origin, when a
// browser sends one) must name this service: the address the request arrived on (and localhost for
// a loopback one), PUBLIC_BASE_URL's host, or what config adds (mcp.allowedHosts, mcp.allowedOrigins).
import type { Request, RequestHandler } from 'express';

export interface HostGuardConfig {
  /** Extra Host values (host or host:port) accepted, e.g. a proxy's name. */
  allowedHosts: string[];
  /** Extra Origin values (scheme://host[:port]) accepted. */
  allowedOrigins: string[];
  publicBaseUrl: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** `host:port` as a Host header writes it (IPv6 in brackets). */
const hostPort = (address: string, port: number): string => `${address.includes(':') ? `[${address}]` : address}:${port}`;

/** The Host values that name this service for a request that arrived on `local`:`port`. */
function allowedHosts(local: string | undefined, port: number | undefined, config: HostGuardConfig): Set<string> {
  const hosts = new Set(config.allowedHosts.map((h) => h.toLowerCase()));
  if (local && port) {
    const address = local.startsWith('::ffff:') ? local.slice(7) : local;
    hosts.add(hostPort(address, port));
    if (LOOPBACK.has(local)) for (const name of ['localhost', '127.0.0.1', '::1']) hosts.add(hostPort(name, port));
  }
  if (config.publicBaseUrl) {
    const url = new URL(config.publicBaseUrl);
    hosts.add(url.host.toLowerCase());
    hosts.add(`${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`);
  }
  return hosts;
}

/**
 * The allowed Host values per listening address: a service listens on few, and the set depends
 * on nothing else, so it is built once per address rather than for every request.
 */
function hostsByAddress(config: HostGuardConfig): (req: Request) => Set<string> {
  const known = new Map<string, Set<string>>();
  return (req) => {
    const local = req.socket.localAddress;
    const port = req.socket.localPort;
    const key = `${local ?? ''} ${port ?? ''}`;
    let hosts = known.get(key);
    if (!hosts) {
      hosts = allowedHosts(local, port, config);
      known.set(key, hosts);
    }
    return hosts;
  };
}

/** Why this request's Host or Origin is refused, or null when both name this service. */
function hostRefusal(req: Request, hosts: Set<string>, config: HostGuardConfig): string | null {
  const host = (req.get('host') ?? '').toLowerCase();
  // A Host without a port names the scheme's default one; a configured host without one, any port.
  const withPort = /(\]|^[^[\]:]+):\d+$/.test(host) ? host : `${host}:${req.protocol === 'https' ? 443 : 80}`;
  const bare = withPort.slice(0, withPort.lastIndexOf(':'));
  if (!hosts.has(host) && !hosts.has(withPort) && !config.allowedHosts.some((h) => h.toLowerCase() === bare)) return `Host ${JSON.stringify(host)} is not this service (allowed: ${[...hosts].sort().join(', ')}; config mcp.allowedHosts adds more)`;
  const origin = req.get('origin');
  if (origin === undefined || config.allowedOrigins.includes(origin)) return null;
  let originHost: string | null = null;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' || url.protocol === 'https:') originHost = url.host.toLowerCase();
  } catch {
    originHost = null;
  }
  if (originHost !== null && hosts.has(originHost)) return null;
  return `Origin ${JSON.stringify(origin)} is not this service (config mcp.allowedOrigins adds more)`;
}

/** 403 with a JSON-RPC error before anything else of an MCP request runs. */
export function mcpHostGuard(config: HostGuardConfig): RequestHandler {
  const hostsOf = hostsByAddress(config);
  return (req, res, next) => {
    const refusal = hostRefusal(req, hostsOf(req), config);
    if (!refusal) return next();
    res.status(403).json({ jsonrpc: '2.0', error: { code: -32000, message: refusal, data: { code: 'invalid_request', message: refusal } }, id: null });
  };
}
