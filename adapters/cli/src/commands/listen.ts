// `switchyard listen <hook> --forward <url>`: local development. Streams the webhook's new
// deliveries from the service (its listen route, server-sent events) and replays each, in order,
// to a local URL with its original headers and body bytes, printing one line per delivery with the
// local answer. A dropped stream is opened again from the last delivery seen, so none is missed.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
/** Where lines go: one per delivery on out, a dropped stream on err. */
interface Output {
  out(text: string): void;
  err(text: string): void;
}

export interface ListenOptions {
  forward?: string;
  /** Resume after this ledger position rather than from now. */
  after?: string;
  apiKey: string | undefined;
  /** Stops the command (SIGINT/SIGTERM in the bin). */
  signal?: AbortSignal;
}

interface ListenEvent {
  entry: string;
  seq: number;
  method: string;
  event_type: string | null;
  headers: Array<[string, string]>;
  body_base64: string;
}

const HOOK_ID = /^hk_[A-Za-z0-9]{12}$/;
const USAGE = 'switchyard listen <hook> --forward http://localhost:3000/path [--after POSITION]';
/** Headers of the original request that belong to its own connection, not to the delivery. */
const NOT_REPLAYED = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'x-sheets-key']);
const RECONNECT_MS = 1000;
const LOCAL_TIMEOUT_MS = 30_000;

/** Replays one delivery to the local URL; answers its status, or why it failed. */
function replay(target: URL, event: ListenEvent): Promise<string> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of event.headers) {
    const lower = name.toLowerCase();
    if (NOT_REPLAYED.has(lower)) continue;
    const had = headers[lower];
    headers[lower] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const body = Buffer.from(event.body_base64, 'base64');
  headers['content-length'] = String(body.length);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(target, { method: event.method, headers, timeout: LOCAL_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (err) => resolve(`failed: ${err.message}`));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${LOCAL_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => resolve(`failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    req.end(body);
  });
}

/** Splits a server-sent event stream into events ({event, id, data}). */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id: string | null; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) yield { event, id, data: data.join('\n') };
    }
  }
}

export async function listenCommand(client: SwitchyardClient, args: string[], options: ListenOptions, io: Output): Promise<void> {
  const hook = args[0];
  if (!hook || !HOOK_ID.test(hook)) throw new CliError('invalid_request', `expected a webhook id (hk_…), got ${hook ?? 'nothing'}\nusage: ${USAGE}`, 2);
  if (!options.forward) throw new CliError('invalid_request', `--forward is required\nusage: ${USAGE}`, 2);
  let target: URL;
  try {
    target = new URL(options.forward);
  } catch {
    throw new CliError('invalid_request', `--forward must be an http or https URL, got ${options.forward}`, 2);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new CliError('invalid_request', `--forward must be an http or https URL, got ${options.forward}`, 2);
  if (options.after !== undefined && !/^\d{1,15}$/.test(options.after)) throw new CliError('invalid_request', '--after must be a ledger position (a number a listen line printed)', 2);
  if (!options.apiKey) throw new CliError('credential_required', 'no API key: pass --key or set SWITCHYARD_API_KEY');

  let after: string | null = options.after ?? null;
  let first = true;
  while (!options.signal?.aborted) {
    let res: Response;
    try {
      res = await fetch(`${client.baseUrl}/api/objects/webhook/${hook}/listen${after !== null ? `?after=${after}` : ''}`, {
        headers: { 'x-sheets-key': options.apiKey, accept: 'text/event-stream' },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (err) {
      if (options.signal?.aborted) return;
      if (first) throw new CliError('unreachable', `cannot reach ${client.baseUrl}: ${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`);
      io.err(`switchyard: the stream dropped (${(err as Error).message}); reconnecting`);
      await new Promise((r) => setTimeout(r, RECONNECT_MS));
      continue;
    }
    if (!res.ok || !res.body) {
      const text = await res.text();
      let error: { code?: string; message?: string } | undefined;
      try {
        error = (JSON.parse(text) as { error?: typeof error }).error;
      } catch {
        error = undefined;
      }
      throw new CliError(error?.code ?? `http_${res.status}`, error?.message ?? `the listen stream answered ${res.status}`);
    }
    try {
      for await (const e of events(res.body)) {
        if (e.event === 'ready') {
          const ready = JSON.parse(e.data) as { after: number };
          after ??= String(ready.after);
          if (first) io.out(`listening to ${hook} after position ${ready.after}; forwarding to ${target.toString()}`);
          first = false;
        } else if (e.event === 'delivery') {
          const delivery = JSON.parse(e.data) as ListenEvent;
          const started = Date.now();
          const answer = await replay(target, delivery);
          io.out(`${delivery.seq} ${delivery.entry} ${delivery.event_type ?? '-'} ${delivery.method} → ${answer} (${Date.now() - started} ms)`);
          after = String(delivery.seq);
        }
      }
    } catch (err) {
      if (options.signal?.aborted) return;
      io.err(`switchyard: the stream dropped (${(err as Error).message}); reconnecting`);
    }
    if (options.signal?.aborted) return;
    await new Promise((r) => setTimeout(r, RECONNECT_MS));
  }
}
