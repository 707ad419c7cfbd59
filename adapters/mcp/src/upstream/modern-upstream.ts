// A connection to an upstream that speaks only MCP 2026-07-28 (no initialize; capabilities and
// client info ride in each request's _meta, found with server/discover). It runs on the v2 client
// SDK (@modelcontextprotocol/client), which speaks that revision; the v1 SDK does not. Its errors
// are told in the v1 SDK's terms (McpError and its codes), which the upstream client maps to ours.
import { Client, LOG_LEVEL_META_KEY, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport, deserializeMessage, type McpSubscription, type OAuthClientProvider, type SubscriptionFilter, type Transport } from '@modelcontextprotocol/client';
import type { UpstreamLogEntry } from '@switchyard/core';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BoundedStdioTransport } from './bounded-stdio-transport.js';
import type { UpstreamConnection, UpstreamRequestOptions } from './upstream-connection.js';
import { MODERN_PROTOCOL_VERSION } from '../eras.js';

/** The spec's "unsupported protocol version" error, which names the versions the server speaks. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The 2026 revision's code for headers missing or contradicting the body; no 2025 server sends it. */
const HEADER_MISMATCH = -32020;

/**
 * Whether an initialize that failed was refused by a server that speaks 2026-07-28 and no 2025
 * version: its -32022 error lists the supported versions, or it answers with the 2026 revision's
 * -32020 (initialize lacks the headers that revision requires). Read from a JSON-RPC error over
 * stdio, or from the body of an HTTP 400 that the v1 SDK quotes in its message.
 */
export function speaksOnlyModern(err: unknown): boolean {
  let code: unknown;
  let data: unknown;
  if (err instanceof McpError) {
    code = err.code;
    data = err.data;
  } else if (err instanceof Error) {
    const body = /\{.*\}\s*$/s.exec(err.message)?.[0];
    if (!body) return false;
    try {
      const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: unknown } };
      code = parsed.error?.code;
      data = parsed.error?.data;
    } catch {
      return false;
    }
  }
  const supported = isObject(data) && Array.isArray(data['supported']) ? (data['supported'] as unknown[]) : [];
  return (code === UNSUPPORTED_PROTOCOL_VERSION && supported.includes(MODERN_PROTOCOL_VERSION)) || code === HEADER_MISMATCH;
}

/** How to reach the upstream: a command to start (stdio) or a URL (streamable HTTP). */
export type ModernTarget =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> | undefined; cwd: string | undefined; maxMessageBytes?: number }
  | { transport: 'streamable-http'; url: URL; fetch: typeof fetch; headers: Record<string, string> | undefined; authProvider?: OAuthClientProvider };

/** A v2 SDK error as the v1 SDK would have said it: protocol errors keep code, message and data. */
function asV1(err: unknown): unknown {
  if (err instanceof ProtocolError) return new McpError(err.code, err.message.replace(/^MCP error -?\d+: /, ''), err.data);
  if (err instanceof SdkError) {
    if (err.code === SdkErrorCode.RequestTimeout) return new McpError(ErrorCode.RequestTimeout, err.message);
    if (err.code === SdkErrorCode.ConnectionClosed) return new McpError(ErrorCode.ConnectionClosed, err.message);
  }
  return err;
}

/** A result that does not say its resultType, given "complete" (SEP-2322); anything else as it came. */
function withResultType(message: unknown): unknown {
  if (!isObject(message) || !('id' in message) || !isObject(message['result']) || message['result']['resultType'] !== undefined) return message;
  return { ...message, result: { ...message['result'], resultType: 'complete' } };
}

/**
 * SEP-2322 has a client assume resultType "complete" when a result leaves it out; the v2 SDK holds
 * 2026 servers to including it and refuses such a result. The connection reads results through
 * this, so a server that leaves it out is understood as the revision's clients must understand it.
 * Everything else of the transport is its own (a proxy: the SDK uses more than the interface).
 */
function assumingComplete(inner: Transport): Transport {
  let handler: Transport['onmessage'];
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === 'onmessage') return handler;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, prop, value) {
      if (prop !== 'onmessage') return Reflect.set(target, prop, value, target);
      handler = value as Transport['onmessage'];
      target.onmessage = handler ? (message, extra) => handler!(withResultType(message) as Parameters<NonNullable<Transport['onmessage']>>[0], extra) : undefined;
      return true;
    },
  });
}

/** dispatch.maxResultBytes's default, for a target that names no bound. */
const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What the upstream says on its listen stream, for the upstream client's listeners (as a 2025 upstream's unsolicited notifications). */
export interface ModernUpstreamEvents {
  resourceUpdated(params: { uri: string } & Record<string, unknown>): void;
  toolListChanged(): void;
}

/** A listen stream that ended (the upstream restarted or dropped it) is opened again after this, doubling up to the cap. */
const RELISTEN_FIRST_MS = 500;
const RELISTEN_MAX_MS = 30_000;
/** How long a listen opened again may wait for its acknowledgement. */
const RELISTEN_TIMEOUT_MS = 10_000;

const v2Options = (o: UpstreamRequestOptions) => ({ timeout: o.timeout, ...(o.signal ? { signal: o.signal } : {}), ...(o.onprogress ? { onprogress: o.onprogress } : {}), ...(o.allowInputRequired ? { allowInputRequired: true } : {}) });

/**
 * 2026-07-28 has no logging/setLevel: a request names the least level it wants logged in its own
 * _meta (LOG_LEVEL_META_KEY, deprecated in the SDK but what its servers read; without it they log
 * nothing). Every level is asked for, as a 2025 connection that never set a level gets them all:
 * the run keeps them, and the caller's own level filters what reaches it.
 */
const LOG_EVERYTHING = 'debug';
const withLogLevel = <P extends { _meta?: Record<string, unknown> }>(params: P): P => ({ ...params, _meta: { ...params._meta, [LOG_LEVEL_META_KEY]: LOG_EVERYTHING } });

export class ModernUpstreamConnection implements UpstreamConnection {
  onclose?: (() => void) | undefined;
  /** The resource URIs forwarded resources/subscribe asked for: 2026-07-28 has no such request, so they are this connection's listen filter. */
  private readonly uris = new Set<string>();
  /** The listen stream open now, if any, and the change of filter in progress (one at a time). */
  private subscription: McpSubscription | undefined;
  private changing: Promise<unknown> = Promise.resolve();
  private relistenMs = RELISTEN_FIRST_MS;
  private relistenTimer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(private readonly client: Client) {
    client.onclose = () => this.onclose?.();
  }

  /**
   * Connects pinned to 2026-07-28: server/discover (or the `discover` result a probe already got,
   * adopted without asking again), then requests with the per-request envelope.
   * Elicitation, sampling and roots are declared, so the upstream may answer a call InputRequiredResult:
   * the SDK fulfils each of its questions through `ask` (the call's caller) and retries the call
   * with the answers and the upstream's own requestState, all within the one call; a request sent
   * with `allowInputRequired` gets the InputRequiredResult itself instead. Log messages go to `log`.
   */
  static async open(target: ModernTarget, clientInfo: { name: string; version: string }, timeoutMs: number, ask: (kind: 'elicit' | 'sample' | 'listRoots', params: Record<string, unknown>, key: string) => Promise<Record<string, unknown>>, events: ModernUpstreamEvents, discover?: Record<string, unknown>, log?: (entry: UpstreamLogEntry) => void): Promise<ModernUpstreamConnection> {
    const client = new Client(clientInfo, { capabilities: { elicitation: {}, sampling: {}, roots: {} }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION }, probe: { timeoutMs } } });
    // The SDK gives an embedded question its inputRequests key as the request id: passed on, so a 2026 caller sees the upstream's keys.
    client.setRequestHandler('elicitation/create', (request, ctx) => ask('elicit', request.params as Record<string, unknown>, String(ctx.mcpReq.id)) as never);
    client.setRequestHandler('sampling/createMessage', (request, ctx) => ask('sample', request.params as Record<string, unknown>, String(ctx.mcpReq.id)) as never);
    client.setRequestHandler('roots/list', (request, ctx) => ask('listRoots', (request.params ?? {}) as Record<string, unknown>, String(ctx.mcpReq.id)) as never);
    // What arrives on the connection's listen stream goes where a 2025 upstream's unsolicited notifications go.
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      const { _meta: _stamp, ...params } = notification.params as { uri: string } & Record<string, unknown>;
      events.resourceUpdated(params as { uri: string } & Record<string, unknown>);
    });
    client.setNotificationHandler('notifications/tools/list_changed', () => events.toolListChanged());
    if (log) {
      client.setNotificationHandler('notifications/message', (notification) => {
        const { level, logger, data } = notification.params;
        log({ level, ...(logger !== undefined ? { logger } : {}), data });
      });
    }
    const transport: Transport =
      target.transport === 'stdio'
        ? // Ours, not the SDK's: it holds no line past the bound. (The v2 client then probes the era in place, which a 2026 server answers.)
          (new BoundedStdioTransport({ command: target.command, args: target.args, env: { ...getDefaultEnvironment(), ...target.env }, cwd: target.cwd, stderr: 'ignore', maxMessageBytes: target.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, parse: deserializeMessage }) as unknown as Transport)
        : new StreamableHTTPClientTransport(target.url, { fetch: target.fetch, ...(target.headers ? { requestInit: { headers: target.headers } } : {}), ...(target.authProvider ? { authProvider: target.authProvider } : {}) });
    try {
      await client.connect(assumingComplete(transport), { timeout: timeoutMs, ...(discover ? { prior: { kind: 'modern', discover } } : {}) } as never);
    } catch (err) {
      await client.close().catch(() => {});
      throw asV1(err);
    }
    const connection = new ModernUpstreamConnection(client);
    // A server that says its tools change is listened to for that from the start, as a 2025 one tells it unasked.
    if (connection.listChanged) connection.changing = connection.relisten(timeoutMs).catch(() => connection.relistenLater());
    return connection;
  }

  private get listChanged(): boolean {
    return this.client.getServerCapabilities()?.tools?.listChanged === true;
  }

  /**
   * A forwarded resources/subscribe or unsubscribe becomes the listen filter: the stream is opened
   * again with the new set of URIs, then the old one closed (no update falls between the two). A
   * server that does not honor resource subscriptions answers -32601, as a 2025 server without
   * them does, and the URI is not held.
   */
  private async changeSubscription(method: 'resources/subscribe' | 'resources/unsubscribe', uri: string, timeoutMs: number): Promise<Record<string, unknown>> {
    const change = this.changing.then(async () => {
      const had = this.uris.has(uri);
      if (method === 'resources/subscribe') this.uris.add(uri);
      else this.uris.delete(uri);
      try {
        const honored = await this.relisten(timeoutMs);
        if (method === 'resources/subscribe' && !honored?.resourceSubscriptions?.includes(uri)) {
          throw new McpError(ErrorCode.MethodNotFound, `the upstream did not honor a subscription to ${uri} on its subscriptions/listen stream`);
        }
      } catch (err) {
        // A refused subscribe is not held; an unsubscribe stays done (the stream opened next leaves the URI out).
        if (method === 'resources/subscribe' && !had) this.uris.delete(uri);
        throw err;
      }
      return {};
    });
    this.changing = change.catch(() => {});
    return change;
  }

  /** Opens the listen stream for the current filter (none when it is empty) and closes the one it replaces. */
  private async relisten(timeoutMs: number): Promise<SubscriptionFilter | undefined> {
    clearTimeout(this.relistenTimer);
    const filter: SubscriptionFilter = { ...(this.listChanged ? { toolsListChanged: true } : {}), ...(this.uris.size > 0 ? { resourceSubscriptions: [...this.uris] } : {}) };
    const old = this.subscription;
    let opened: McpSubscription | undefined;
    if (Object.keys(filter).length > 0 && !this.closed) {
      opened = await this.client.listen(filter, { timeout: timeoutMs });
      const listening = opened;
      this.subscription = opened;
      // Ended by the upstream (gone, restarted, or shutting down) rather than by us: listened to again.
      // (A stream that honored nothing ends at once, gracefully: nothing to listen to again.)
      void listening.closed.then((how) => {
        if (how !== 'local' && this.subscription === listening && Object.keys(listening.honoredFilter).length > 0) this.relistenLater();
      });
      this.relistenMs = RELISTEN_FIRST_MS;
    } else {
      this.subscription = undefined;
    }
    await old?.close().catch(() => {});
    return opened?.honoredFilter;
  }

  private relistenLater(): void {
    if (this.closed) return;
    this.subscription = undefined;
    clearTimeout(this.relistenTimer);
    this.relistenTimer = setTimeout(() => {
      this.changing = this.changing.then(() => this.relisten(RELISTEN_TIMEOUT_MS)).catch(() => this.relistenLater());
    }, this.relistenMs);
    this.relistenTimer.unref();
    this.relistenMs = Math.min(this.relistenMs * 2, RELISTEN_MAX_MS);
  }

  async listTools(params: { cursor?: string }, options: UpstreamRequestOptions): Promise<{ tools: unknown[]; nextCursor?: string | undefined }> {
    try {
      return await this.client.listTools(params.cursor === undefined ? {} : { cursor: params.cursor }, v2Options(options));
    } catch (err) {
      throw asV1(err);
    }
  }

  async callTool(params: { name: string; arguments: Record<string, unknown> }, _resultSchema: undefined, options: UpstreamRequestOptions): Promise<unknown> {
    try {
      return await this.client.callTool(withLogLevel(params as typeof params & { _meta?: Record<string, unknown> }), v2Options(options));
    } catch (err) {
      throw asV1(err);
    }
  }

  async request(request: { method: string; params?: Record<string, unknown> }, _resultSchema: never, options: UpstreamRequestOptions): Promise<Record<string, unknown>> {
    const uri = request.params?.['uri'];
    if ((request.method === 'resources/subscribe' || request.method === 'resources/unsubscribe') && typeof uri === 'string') {
      try {
        return await this.changeSubscription(request.method, uri, options.timeout);
      } catch (err) {
        throw asV1(err);
      }
    }
    try {
      return (await this.client.request({ ...request, params: withLogLevel(request.params ?? {}) } as never, v2Options(options))) as Record<string, unknown>;
    } catch (err) {
      throw asV1(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relistenTimer);
    const open = this.subscription;
    this.subscription = undefined;
    await open?.close().catch(() => {});
    return this.client.close();
  }
}
