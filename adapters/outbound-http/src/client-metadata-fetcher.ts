// Client ID metadata documents (the MCP spec's URL client ids) fetched under the same address
// policy as forwarding and WEB_FETCH: the host is resolved and every address checked (internal
// ranges refused unless allowlisted as host or host:port in oauth.clientMetadata.allow), the
// connection pinned to the checked address, no redirects, a size cap and a timeout.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ClientMetadataSource } from '@switchyard/core';
import type { DestinationAddressPolicy } from './forward-sender.js';

const MAX_BYTES = 16 * 1024;
const TIMEOUT_MS = 5000;

export class ClientMetadataFetcher implements ClientMetadataSource {
  constructor(
    private readonly policy: DestinationAddressPolicy,
    private readonly resolve: (host: string) => Promise<Array<{ address: string; family: number }>> = (host) => dnsLookup(host, { all: true, verbatim: true }),
  ) {}

  async fetch(url: string): Promise<unknown> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    const addresses = literal ? [{ address: host, family: literal }] : await this.resolve(host);
    if (addresses.length === 0) throw new Error(`could not resolve ${host}`);
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    for (const { address } of addresses) {
      const why = this.policy.check(host, address, port);
      if (why) throw new Error(why.replace('webhooks.forwarding.allow', 'oauth.clientMetadata.allow'));
    }
    const pinned = addresses[0]!;
    const lookup = ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    }) as unknown as LookupFunction;
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const text = await new Promise<string>((resolve, reject) => {
      const req = request(target, { method: 'GET', headers: { accept: 'application/json' }, lookup, signal: AbortSignal.timeout(TIMEOUT_MS) }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`it answered ${res.statusCode}${res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? ' (redirects are not followed)' : ''}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) {
            res.destroy();
            reject(new Error(`it is larger than ${MAX_BYTES} bytes`));
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.on('error', (err) => reject(new Error(`${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`)));
      req.end();
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error('it is not JSON');
    }
  }
}
