// The WEB_FETCH runner: follows redirects (each hop checked again), and answers status, headers,
// body (text, or base64 for binary) and whether the body was cut at the size cap.
import type { IncomingHttpHeaders } from 'node:http';
import { SwitchyardError, type Capability, type CapabilityRunner, type RunContext } from '@switchyard/plugin-kit';
import { AddressPolicy } from '@switchyard/plugin-kit';
import { fetchHop, systemResolver, type Resolver } from './fetcher.js';
import type { WebFetchOptions } from './options.js';

export interface FetchArgs {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface FetchResult {
  status: number;
  status_text: string;
  url: string;
  redirects: string[];
  headers: IncomingHttpHeaders;
  body: string;
  body_encoding: 'text' | 'base64';
  bytes: number;
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TEXTUAL = /^text\/|[+/](json|xml)\b|javascript|x-www-form-urlencoded|charset=/i;

function decode(body: Buffer, contentType: string | undefined): { body: string; body_encoding: 'text' | 'base64' } {
  if (body.length === 0) return { body: '', body_encoding: 'text' };
  if (!contentType || !TEXTUAL.test(contentType)) return { body: body.toString('base64'), body_encoding: 'base64' };
  const charset = /charset="?([\w-]+)/i.exec(contentType)?.[1] ?? 'utf-8';
  try {
    return { body: new TextDecoder(charset).decode(body), body_encoding: 'text' };
  } catch {
    return { body: body.toString('utf8'), body_encoding: 'text' };
  }
}

export class WebFetchRunner implements CapabilityRunner {
  private readonly policy: AddressPolicy;

  constructor(
    private readonly options: WebFetchOptions,
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.policy = new AddressPolicy(options);
  }

  async run(_capability: Capability, input: unknown, context: RunContext): Promise<FetchResult> {
    const args = input as FetchArgs;
    const signal = AbortSignal.timeout(Math.min(this.options.timeoutMs, context.timeoutMs));
    let url = new URL(args.url);
    let method = args.method;
    let body = args.body;
    let headers: Record<string, string> = { 'user-agent': this.options.userAgent, ...(args.headers ?? {}) };
    const redirects: string[] = [];
    for (;;) {
      const hop = await fetchHop({ url, method, headers, ...(body !== undefined ? { body } : {}) }, {
        policy: this.policy,
        resolve: this.resolve,
        maxResponseBytes: this.options.maxResponseBytes,
        signal,
      });
      const location = hop.headers.location;
      if (REDIRECTS.has(hop.status) && location) {
        if (redirects.length >= this.options.maxRedirects) {
          throw new SwitchyardError('fetch_failed', `more than ${this.options.maxRedirects} redirects`, { url: url.toString(), redirects });
        }
        // The upstream's Location is its text, not ours: one no parser reads fails the fetch, never the service.
        if (!URL.canParse(location, url.href)) throw new SwitchyardError('fetch_failed', 'the redirect names a malformed URL', { location: location.slice(0, 200) });
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new SwitchyardError('fetch_failed', `redirect to unsupported scheme ${next.protocol}`, { location });
        redirects.push(next.toString());
        if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        // Credentials are for the origin they were given to.
        if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie)$/i.test(name)));
        url = next;
        continue;
      }
      return {
        status: hop.status,
        status_text: hop.statusText,
        url: url.toString(),
        redirects,
        headers: hop.headers,
        ...decode(hop.body, hop.headers['content-type']),
        bytes: hop.body.length,
        truncated: hop.truncated,
      };
    }
  }
}
