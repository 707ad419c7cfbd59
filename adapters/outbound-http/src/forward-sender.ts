// The forwarder's outbound POST: the shared address policy (network-policy) (decided on the resolved address,
// connection pinned to it) with an allowlist whose entries may name a port, redirects 307/308
// followed and checked again, the answer cut at an excerpt, a hard timeout. Never throws.
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { ANSWER_EXCERPT_BYTES, parseAllowEntry, type OutboundSender, type SendOutcome } from '@switchyard/core';
import { refusedRange } from '@switchyard/network-policy';

const MAX_REDIRECTS = 3;

/**
 * Allowlist entries (core's allow-entry.ts): "host" (a name or an address) admits that host on
 * ports 80 and 443 only; "host:port" (or "[v6]:port") admits it on that port. The configuration's
 * entries are fixed; the run-time ones (the owner's, from the database) are replaced as a whole
 * when read again. Everything else must resolve to a public address.
 */
export class DestinationAddressPolicy {
  private readonly entries = new Set<string>();
  private runtime = new Set<string>();

  constructor(allow: string[]) {
    for (const raw of allow) {
      const parsed = parseAllowEntry(raw);
      if (!parsed) throw new Error(`webhooks.forwarding.allow: ${raw} is not host or host:port`);
      for (const port of parsed.ports) this.entries.add(`${parsed.host}|${port}`);
    }
  }

  /** The run-time entries now (an entry that does not parse is passed over). */
  admitAlso(entries: string[]): void {
    const next = new Set<string>();
    for (const raw of entries) {
      const parsed = parseAllowEntry(raw);
      if (parsed) for (const port of parsed.ports) next.add(`${parsed.host}|${port}`);
    }
    this.runtime = next;
  }

  private allowed(hostOrAddress: string, port: number): boolean {
    const key = `${hostOrAddress.toLowerCase()}|${port}`;
    return this.entries.has(key) || this.runtime.has(key);
  }

  /** Null when the host (resolved to address) on port may be sent to, else why not. */
  check(host: string, address: string, port: number): string | null {
    if (this.allowed(host, port) || this.allowed(address, port)) return null;
    const range = refusedRange(address);
    return range ? `${host}:${port} resolves to ${address}, ${/^[aeiou]/.test(range) ? 'an' : 'a'} ${range} address, and is not allowlisted (webhooks.forwarding.allow)` : null;
  }
}

const portOf = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

export class HttpOutboundSender implements OutboundSender {
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly policy: DestinationAddressPolicy,
    private readonly resolve: (host: string) => Promise<Array<{ address: string; family: number }>> = (host) => dnsLookup(host, { all: true, verbatim: true }),
  ) {}

  /** Resolves the host and checks every address; the first is the one connected to. */
  private async pin(url: URL): Promise<{ address: string; family: number } | string> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = literal ? [{ address: host, family: literal }] : await this.resolve(host);
    } catch (err) {
      return `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
    if (addresses.length === 0) return `could not resolve ${host}`;
    for (const { address } of addresses) {
      const why = this.policy.check(host, address, portOf(url));
      if (why) return why;
    }
    return addresses[0]!;
  }

  admitAlso(entries: string[]): void {
    this.policy.admitAlso(entries);
  }

  async refusal(url: string): Promise<string | null> {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    // Only what is known before sending: a literal address, or a name that resolves now.
    const pinned = await this.pin(parsed);
    if (typeof pinned === 'string' && (isIP(host) || !pinned.startsWith('could not resolve'))) return pinned;
    return null;
  }

  async post(url: string, headers: Record<string, string | string[]>, body: Uint8Array, timeoutMs: number): Promise<SendOutcome> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const signal = AbortSignal.timeout(timeoutMs);
    let target = new URL(url);
    try {
      for (let hop = 0; ; hop++) {
        const pinned = await this.pin(target);
        if (typeof pinned === 'string') return pinned.startsWith('could not resolve') ? { kind: 'unreachable', message: pinned, duration_ms: elapsed() } : { kind: 'blocked', message: pinned, duration_ms: elapsed() };
        const answer = await this.exchange(target, pinned, headers, body, signal);
        const location = answer.location;
        if ((answer.status === 307 || answer.status === 308) && location && hop < MAX_REDIRECTS) {
          target = new URL(location, target);
          if (target.protocol !== 'http:' && target.protocol !== 'https:') return { kind: 'blocked', message: `redirect to ${target.protocol} refused`, duration_ms: elapsed() };
          continue;
        }
        return { kind: 'answered', status: answer.status, excerpt: answer.excerpt, duration_ms: elapsed() };
      }
    } catch (err) {
      if (signal.aborted) return { kind: 'timeout', duration_ms: elapsed() };
      return { kind: 'unreachable', message: `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${(err as Error).message}`, duration_ms: elapsed() };
    }
  }

  private exchange(url: URL, pinned: { address: string; family: number }, headers: Record<string, string | string[]>, body: Uint8Array, signal: AbortSignal): Promise<{ status: number; excerpt: string; location: string | undefined }> {
    const lookup = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    }) as unknown as LookupFunction;
    const https = url.protocol === 'https:';
    const request = https ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, lookup, agent: https ? this.httpsAgent : this.httpAgent, signal },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < ANSWER_EXCERPT_BYTES) {
              chunks.push(chunk.subarray(0, ANSWER_EXCERPT_BYTES - kept));
              kept += Math.min(chunk.length, ANSWER_EXCERPT_BYTES - kept);
            } else {
              // The rest of a large answer is not wanted: stop reading it.
              res.destroy();
              resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8'), location: res.headers.location });
            }
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8'), location: res.headers.location }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
