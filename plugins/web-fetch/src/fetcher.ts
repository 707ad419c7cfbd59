// One guarded HTTP exchange per hop: resolve the host once, refuse it if any address is refused,
// then connect to exactly that address (the lookup hook is pinned), so a second DNS answer can
// never swap in an internal address (DNS rebinding). Response size and total time are capped.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { SwitchyardError } from '@switchyard/plugin-kit';
import type { AddressPolicy } from '@switchyard/plugin-kit';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to every address it has (injectable for tests). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;
export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface HopRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HopResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  address: string;
}

export interface HopLimits {
  policy: AddressPolicy;
  resolve: Resolver;
  maxResponseBytes: number;
  signal: AbortSignal;
}

/** Hop-by-hop and framing headers are ours to set, not the caller's. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);

async function resolveChecked(host: string, limits: HopLimits): Promise<ResolvedAddress> {
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await limits.resolve(host);
    } catch (error) {
      throw new SwitchyardError('fetch_failed', `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { host });
    }
  }
  if (addresses.length === 0) throw new SwitchyardError('fetch_failed', `could not resolve ${host}`, { host });
  for (const { address } of addresses) {
    const range = limits.policy.check(host, address);
    if (range) throw new SwitchyardError('blocked_address', `refused to fetch ${host}: it resolves to ${address}, ${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range} address`, { host, address, range });
  }
  return addresses[0]!;
}

export async function fetchHop(hop: HopRequest, limits: HopLimits): Promise<HopResponse> {
  const host = hop.url.hostname.replace(/^\[|\]$/g, '');
  const pinned = await resolveChecked(host, limits);
  const pinnedLookup = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(hop.headers)) if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = value;
  const body = hop.body !== undefined ? Buffer.from(hop.body, 'utf8') : undefined;
  if (body) headers['content-length'] = String(body.length);

  const request = hop.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<HopResponse>((resolve, reject) => {
    const req = request(hop.url, { method: hop.method, headers, lookup: pinnedLookup, agent: false, signal: limits.signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = limits.maxResponseBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          res.destroy();
          finish();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks, size), truncated, address: pinned.address });
      };
      res.on('end', finish);
      res.on('error', (error) => (done ? undefined : reject(error)));
    });
    req.on('error', reject);
    req.end(body);
  }).catch((error: unknown) => {
    if (SwitchyardError.is(error)) throw error;
    if (limits.signal.aborted) throw new SwitchyardError('upstream_timeout', `${hop.url.host} did not answer in time`, { url: hop.url.toString() });
    const code = (error as NodeJS.ErrnoException).code;
    throw new SwitchyardError('fetch_failed', `fetching ${hop.url.toString()} failed: ${code ?? (error as Error).message}`, { url: hop.url.toString(), ...(code ? { cause: code } : {}) });
  });
}
