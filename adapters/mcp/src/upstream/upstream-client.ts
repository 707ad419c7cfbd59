// McpUpstreamClient: the one MCP client adapter, the pool of connections and the era each speaks.
// The rest is beside it: the transports (transports.ts), matching an upstream's messages to the call
// in flight they are about (in-flight-calls.ts), what it says changed and the subscriptions callers
// hold (subscriptions.ts), what an answer is (tool-results.ts). Keeps one connection per upstream and reuses it
// (for stdio: one child process, started on first use and again after it exits), and for an
// upstream that speaks both eras a second one, in 2026-07-28, for callers of that revision; maps transport
// failures to upstream_unavailable and slow calls to upstream_timeout. A call passes on what the
// upstream says meanwhile: progress and elicitation/sampling requests to the caller's channel, log
// messages to the run (and to the caller, when it asked for them); the caller's abort becomes
// notifications/cancelled upstream. Resource updates go to whoever listens (the subscriptions).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, LoggingMessageNotificationSchema, McpError, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema, type Request as McpRequest } from '@modelcontextprotocol/sdk/types.js';
import { SwitchyardError, type ForwardedRequestOptions, type McpToolDescription, type ToolCallOptions, type ToolCallResult, type UpstreamAddress, type UpstreamLogEntry, type UpstreamToolClient } from '@switchyard/core';
import { traceHeaders } from '@switchyard/telemetry';
import type { OAuthClientProvider as ModernOAuthProvider } from '@modelcontextprotocol/client';
import { MODERN_PROTOCOL_VERSION } from '../eras.js';
import { ANSWER_TOO_LARGE_CODE } from './bounded-stdio-transport.js';
import { ProbeTimeoutError, probeEra, type EraVerdict } from './era-probe.js';
import { InFlightCalls, askCaller, currentCall, currentStream, passLog, type CallerQuestion, type InFlightCall } from './in-flight-calls.js';
import { AnswerCutOffError, AnswerTooLargeError, createLeanFetch } from './lean-fetch.js';
import { ModernUpstreamConnection, speaksOnlyModern, type ModernTarget } from './modern-upstream.js';
import { UpstreamSubscriptions } from './subscriptions.js';
import { AnyResult, answerBytes, isStaleSession, toToolCallResult } from './tool-results.js';
import { legacyTransport } from './transports.js';
import type { UpstreamConnection } from './upstream-connection.js';
import type { UpstreamOAuthClients } from './upstream-auth.js';
import { refuseWrongEraAnswer } from './wrong-era-answer.js';

const CLIENT_INFO = { name: 'switchyard', version: '0.1.0' };
/** A server that keeps answering with a cursor is not listed forever. */
const MAX_TOOL_PAGES = 100;

/** One connection per distinct upstream: transport and address, and for stdio the whole command. */
const connectionKeyOf = (u: UpstreamAddress): string =>
  u.transport === 'stdio' ? `stdio ${JSON.stringify([u.command, u.args ?? [], u.cwd ?? null, u.env ?? {}])}` : `${u.transport} ${u.url}`;

/** The key of the 2026-07-28 connection to an upstream of both eras, beside its 2025 one (`key`). */
const modernKeyOf = (key: string): string => `${key} ${MODERN_PROTOCOL_VERSION}`;

/** Requests that stay on an upstream's 2025 connection whoever asks: its resource updates arrive there (notifications/resources/updated). */
const ON_LEGACY_CONNECTION = new Set(['resources/subscribe', 'resources/unsubscribe']);

/** What an initialize refused by an upstream that speaks only 2026-07-28 comes to. */
const MODERN_ONLY = Symbol('modern-only');

/** The SDK's own request timeout is replaced by the call's clock (which pauses): set beyond reach. */
const NO_SDK_TIMEOUT = 2_147_483_647;

export interface McpUpstreamClientOptions {
  /** How long opening a connection may take before the upstream counts as unavailable. */
  connectTimeoutMs?: number;
  /** Sign-in for upstreams that use OAuth (their address names them in `oauth`). */
  oauth?: UpstreamOAuthClients;
  /** The largest answer read from an upstream (a JSON-RPC message); a larger one fails its run upstream_answer_too_large. */
  maxResultBytes?: number;
}

/** With traces on, the call's W3C trace context in the request's _meta (traceparent, tracestate), as MCP servers read it. */
function traceMeta(): { _meta?: Record<string, string> } {
  const headers = traceHeaders();
  return headers['traceparent'] ? { _meta: headers } : {};
}

/** dispatch.maxResultBytes's default: 8 MiB. */
export const DEFAULT_MAX_RESULT_BYTES = 8 * 1024 * 1024;

export class McpUpstreamClient implements UpstreamToolClient {
  private readonly connections = new Map<string, Promise<UpstreamConnection>>();
  private readonly connectTimeoutMs: number;
  private readonly oauth: UpstreamOAuthClients | undefined;
  private readonly http: ReturnType<typeof createLeanFetch>;
  private readonly maxResultBytes: number;
  /** Who hears an upstream's changes, and the resources subscribed on each connection. */
  private readonly subscriptions = new UpstreamSubscriptions();
  /** Calls in flight on each connection, to match an upstream's messages to the call they are about. */
  private readonly inFlight = new InFlightCalls();
  /**
   * Upstreams (by connection key) whose probe found both eras: the verdict, with the probe's
   * discover result when it gave one, kept so a 2026 caller's connection opens without probing
   * again. Set or cleared each time the 2025 connection is opened.
   */
  private readonly bothEras = new Map<string, { discover?: Record<string, unknown> }>();

  constructor(options: McpUpstreamClientOptions = {}) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.oauth = options.oauth;
    this.maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    // A request goes out in its call's async context: its answer breaking off fails that call at once.
    this.http = createLeanFetch({ maxMessageBytes: this.maxResultBytes, brokenAnswerReporter: () => currentCall.getStore()?.fail ?? currentStream.getStore()?.failAll });
  }

  onToolListChanged(listener: (upstream: UpstreamAddress) => void): () => void {
    return this.subscriptions.onToolListChanged(listener);
  }

  onResourceUpdated(listener: (upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>) => void): () => void {
    return this.subscriptions.onResourceUpdated(listener);
  }

  async listTools(upstream: UpstreamAddress, options: { timeoutMs: number }): Promise<McpToolDescription[]> {
    const connectionKey = connectionKeyOf(upstream);
    const client = await this.connection(connectionKey, upstream);
    const tools: McpToolDescription[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const answer = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: options.timeoutMs });
        tools.push(...(answer.tools as McpToolDescription[]));
        cursor = answer.nextCursor;
        if (!cursor) return tools;
      }
      throw new SwitchyardError('upstream_unavailable', `${upstream.url} kept paging tools/list past ${MAX_TOOL_PAGES} pages`, { upstream: upstream.url });
    } catch (err) {
      if (SwitchyardError.is(err)) throw err;
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        throw new SwitchyardError('upstream_timeout', `${upstream.url} did not list its tools within ${options.timeoutMs} ms`, { upstream: upstream.url });
      }
      if (!(err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)) this.drop(connectionKey, client);
      throw new SwitchyardError('upstream_unavailable', `${upstream.url} did not list its tools: ${(err as Error).message}`, { upstream: upstream.url });
    }
  }

  async callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
    // Only a 2026 caller may need the era found first; every other call goes straight to its connection.
    const connectionKey = options.callerProtocol === MODERN_PROTOCOL_VERSION ? await this.keyFor(upstream, options.callerProtocol) : connectionKeyOf(upstream);
    const pending = this.connection(connectionKey, upstream);
    let client = await pending;
    // Out of time or withdrawn by the caller: the upstream is told (notifications/cancelled). One
    // controller for both, with a listener on the caller's signal: AbortSignal.any costs several
    // times as much per call (Node 20).
    const stop = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let asking = 0;
    const startClock = () => {
      timer = setTimeout(() => {
        timedOut = true;
        stop.abort();
      }, options.timeoutMs);
    };
    const withdraw = () => stop.abort();
    options.signal?.addEventListener('abort', withdraw, { once: true });
    if (options.signal?.aborted) withdraw();
    const call: InFlightCall = {
      channel: options.channel,
      onLog: options.onLog,
      unanswered: null,
      broken: null,
      fail: (err) => {
        call.broken ??= err;
        stop.abort();
      },
      pauseClock: () => {
        if (asking++ === 0) clearTimeout(timer);
      },
      resumeClock: () => {
        if (--asking === 0 && !stop.signal.aborted) startClock();
      },
    };
    this.inFlight.track(client, call);
    startClock();
    try {
      const progress = options.channel?.progress;
      const send = (c: UpstreamConnection) =>
        currentCall.run(call, () =>
          c.callTool({ name: tool, arguments: (args ?? {}) as Record<string, unknown>, ...traceMeta() }, undefined, {
            timeout: NO_SDK_TIMEOUT,
            // Aborting sends notifications/cancelled to the upstream (the SDK does it).
            signal: stop.signal,
            ...(progress ? { onprogress: (p: { progress: number; total?: number; message?: string }) => progress(p) } : {}),
          }),
        );
      let result: unknown;
      try {
        result = await send(client);
      } catch (err) {
        if (!isStaleSession(err) || stop.signal.aborted) throw err;
        // The upstream restarted while we were idle and never read the call: a new session, same call.
        this.forget(connectionKey, pending, client);
        this.inFlight.untrack(client, call);
        client = await this.connection(connectionKey, upstream);
        this.inFlight.track(client, call);
        result = await send(client);
      }
      if (call.unanswered) throw call.unanswered;
      if (call.broken) throw call.broken;
      // The 2026 connection speaks its own result types; a 2025 session must not receive them.
      if (client instanceof Client) refuseWrongEraAnswer(result, upstream.url, tool);
      const answer = result as { isError?: boolean; content?: unknown; structuredContent?: unknown };
      // Each transport bounds the message as it arrives; the content is weighed too, as it is kept.
      if (answerBytes(answer) > this.maxResultBytes) throw new AnswerTooLargeError(this.maxResultBytes);
      return toToolCallResult(answer);
    } catch (err) {
      if (SwitchyardError.is(err)) throw err;
      if (call.unanswered) throw call.unanswered;
      const broken = call.broken ?? (err instanceof AnswerTooLargeError || err instanceof AnswerCutOffError ? err : null) ?? this.tooLargeOverStdio(err);
      if (broken instanceof AnswerTooLargeError) {
        // Over the legacy SSE transport the cut stream was the connection's only one: open a new one next time.
        if (upstream.transport === 'sse') this.drop(connectionKey, client);
        throw new SwitchyardError('upstream_answer_too_large', `${upstream.url} answered ${tool} with more than ${broken.limit} bytes (dispatch.maxResultBytes); the answer was not read further`, { upstream: upstream.url, tool, max_bytes: broken.limit });
      }
      if (broken) {
        this.drop(connectionKey, client);
        throw new SwitchyardError('upstream_unavailable', `${upstream.url} closed the connection in the middle of ${tool}: ${broken.message}`, { upstream: upstream.url, tool });
      }
      if (options.signal?.aborted) {
        // A reason given with the abort (a paused run withdrawn, say) is kept in the record; a plain abort has none.
        const reason = options.signal.reason as unknown;
        const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
        throw new SwitchyardError('cancelled', `the caller cancelled ${tool} on ${upstream.url}${why}`, { upstream: upstream.url, tool });
      }
      if (timedOut || (err instanceof McpError && err.code === ErrorCode.RequestTimeout)) {
        throw new SwitchyardError('upstream_timeout', `${upstream.url} did not answer ${tool} within ${options.timeoutMs} ms`, { upstream: upstream.url, tool });
      }
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) {
        // The server answered with a protocol error (unknown tool, bad params): the upstream is up.
        return { isError: true, value: null, text: err.message, content: [{ type: 'text', text: err.message }] };
      }
      // Anything else broke the connection: forget it, so the next call reconnects.
      this.drop(connectionKey, client);
      throw new SwitchyardError('upstream_unavailable', `${upstream.url} is unavailable: ${(err as Error).message}`, { upstream: upstream.url, tool });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', withdraw);
      this.inFlight.untrack(client, call);
    }
  }

  async request(upstream: UpstreamAddress, method: string, params: Record<string, unknown> | undefined, options: ForwardedRequestOptions): Promise<Record<string, unknown>> {
    // Subscriptions stay on the 2025 connection (see ON_LEGACY_CONNECTION); the rest follows the caller's era.
    const era = ON_LEGACY_CONNECTION.has(method) ? undefined : options.callerProtocol;
    let connectionKey = connectionKeyOf(upstream);
    let client: UpstreamConnection | undefined;
    // What the upstream asks while the request runs (an elicitation during prompts/get, or a 2026
    // upstream's InputRequiredResult fulfilled by the SDK) goes to this caller's channel, as for a call.
    const call: InFlightCall = {
      channel: options.channel,
      onLog: undefined,
      unanswered: null,
      broken: null,
      fail: (err) => {
        call.broken ??= err;
      },
      pauseClock: () => {},
      resumeClock: () => {},
    };
    let tracked: UpstreamConnection | undefined;
    const track = (c: UpstreamConnection) => {
      if (tracked) this.inFlight.untrack(tracked, call);
      this.inFlight.track((tracked = c), call);
    };
    try {
      connectionKey = await this.keyFor(upstream, era);
      const pending = this.connection(connectionKey, upstream);
      client = await pending;
      const send = (c: UpstreamConnection) => {
        // Counted in flight (where a message's call is told by being the only one) only when it can
        // be asked: one that cannot must not make a call's questions and logs over stdio unmatchable.
        if (options.channel) track(c);
        // A 2026 caller on a 2026 connection answers an InputRequiredResult itself: handed back as it is.
        const asIs = era === MODERN_PROTOCOL_VERSION && c instanceof ModernUpstreamConnection;
        return currentCall.run(call, () => c.request({ method, ...(params ? { params } : {}) } as McpRequest, AnyResult as never, { timeout: options.timeoutMs, ...(asIs ? { allowInputRequired: true } : {}) }));
      };
      let answer: Record<string, unknown>;
      try {
        answer = await send(client);
      } catch (err) {
        if (!isStaleSession(err)) throw err;
        this.forget(connectionKey, pending, client);
        client = await this.connection(connectionKey, upstream);
        answer = await send(client);
      }
      if (call.unanswered) throw call.unanswered;
      this.subscriptions.note(connectionKey, method, params);
      return answer;
    } catch (err) {
      if (call.unanswered) throw call.unanswered;
      if (SwitchyardError.is(err)) throw err;
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
        throw new SwitchyardError('upstream_timeout', `${upstream.url} did not answer ${method} within ${options.timeoutMs} ms`, { upstream: upstream.url, method });
      }
      // The upstream's own JSON-RPC error (unknown resource, bad params) goes back as it is.
      if (err instanceof McpError && err.code !== ErrorCode.ConnectionClosed) throw err;
      if (client) this.drop(connectionKey, client);
      throw new SwitchyardError('upstream_unavailable', `${upstream.url} is unavailable: ${(err as Error).message}`, { upstream: upstream.url, method });
    } finally {
      if (tracked) this.inFlight.untrack(tracked, call);
    }
  }

  /**
   * Which connection a caller of `callerProtocol` uses: an upstream of both eras is spoken
   * 2026-07-28 to a 2026 caller (its own connection, so what that revision can carry reaches the
   * caller: an InputRequiredResult, answers per request), 2025-11-25 to everyone else (2025 MCP
   * callers, REST, webhooks, CLI), as the 2025 faces bridge that era's features (logging levels,
   * sessions, subscriptions). Whether it speaks both is learnt by opening the 2025 connection (the
   * probe), once, so a 2026 caller's first call may open both.
   */
  private async keyFor(upstream: UpstreamAddress, callerProtocol: string | undefined): Promise<string> {
    const key = connectionKeyOf(upstream);
    if (callerProtocol !== MODERN_PROTOCOL_VERSION) return key;
    if (!this.bothEras.has(key)) await this.connection(key, upstream);
    return this.bothEras.has(key) ? modernKeyOf(key) : key;
  }

  /**
   * Forgets a connection whose session the upstream no longer knows, at once (drop forgets on a
   * later tick), so the retry that follows opens a new one.
   */
  private forget(key: string, pending: Promise<UpstreamConnection>, client: UpstreamConnection): void {
    if (this.connections.get(key) === pending) this.connections.delete(key);
    client.close().catch(() => {});
  }

  /** The stdio transport's stand-in for an answer it dropped past the bound (the connection stays up). */
  private tooLargeOverStdio(err: unknown): AnswerTooLargeError | null {
    return err instanceof McpError && err.code === ANSWER_TOO_LARGE_CODE ? new AnswerTooLargeError(this.maxResultBytes) : null;
  }

  /**
   * Elicitation and sampling requests go to the caller of the call they belong to, when its client
   * can answer them; otherwise the upstream gets an error and the run fails with a coded reason.
   */
  private answerCallerRequests(client: Client): void {
    const ask = (kind: CallerQuestion, params: Record<string, unknown>) => askCaller(kind, params, this.inFlight.callFor(client), true);
    client.setRequestHandler(ElicitRequestSchema, (request) => ask('elicit', request.params as Record<string, unknown>) as never);
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ask('sample', request.params as Record<string, unknown>) as never);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      const { level, logger, data } = notification.params;
      passLog(this.inFlight.callFor(client), { level, ...(logger !== undefined ? { logger } : {}), data });
    });
  }

  /**
   * The OAuth sign-in of an upstream, in either era: our provider (its sealed tokens, refresh, the
   * owner's consent) and its fetch over `inner`. Throws upstream_auth_required when the owner has
   * not connected it: nothing is sent.
   */
  private async signIn(upstream: UpstreamAddress, name: string, inner: typeof globalThis.fetch): Promise<Awaited<ReturnType<UpstreamOAuthClients['transportAuth']>>> {
    if (!this.oauth?.has(name)) throw new SwitchyardError('upstream_unavailable', `${upstream.url} signs in with OAuth, and no sign-in is configured for ${name}`, { upstream: upstream.url });
    return this.oauth.transportAuth(name, inner);
  }

  private connection(key: string, upstream: UpstreamAddress): Promise<UpstreamConnection> {
    let pending = this.connections.get(key);
    if (!pending) {
      // The 2026 connection of an upstream of both eras adopts the probe's discover result (none: it asks).
      pending = key === modernKeyOf(connectionKeyOf(upstream)) ? this.connectModern(upstream, this.bothEras.get(connectionKeyOf(upstream))?.discover) : this.connect(upstream, key);
      this.connections.set(key, pending);
      pending.then(
        (client) => {
          client.onclose = () => this.drop(key, client);
          this.subscriptions.renew(key, client, this.connectTimeoutMs);
        },
        () => this.connections.delete(key),
      );
    }
    return pending;
  }

  /** One retry on a refused or reset connection: a keep-alive socket left from a restarted upstream fails once. */
  private async connect(upstream: UpstreamAddress, key: string): Promise<UpstreamConnection> {
    try {
      return await this.connectOnce(upstream, key);
    } catch (err) {
      if (!SwitchyardError.is(err, 'upstream_unavailable')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return this.connectOnce(upstream, key);
    }
  }

  /**
   * Opens a connection in the era the upstream speaks. Over streamable HTTP (without OAuth sign-in)
   * a 2026-07-28 request comes first, as that revision has a client of both eras find out
   * (probeEra): an upstream that named 2026-era versions only is connected on that revision at
   * once. Otherwise initialize (2025 and older) follows, and a server of both eras is kept in the
   * 2025 era on this connection, where every face's features (logging, subscriptions) are bridged,
   * and noted in bothEras, so 2026 callers get a connection of their own (keyFor); one that refuses
   * initialize in the 2026 revision's terms (-32022 naming only 2026-07-28, or -32020), or that
   * answered the probe and then fails initialize, is connected on 2026-07-28 (adopting the
   * probe's discover result, not asked again).
   */
  private async connectOnce(upstream: UpstreamAddress, key: string): Promise<UpstreamConnection> {
    this.bothEras.delete(key);
    if (upstream.transport !== 'streamable-http' || upstream.oauth) {
      const legacy = await this.connectLegacy(upstream);
      return legacy === MODERN_ONLY ? this.connectModern(upstream) : legacy;
    }
    const verdict = await probeEra(new URL(upstream.url), this.http.fetch as typeof fetch, upstream.headers, CLIENT_INFO, {}, this.connectTimeoutMs).catch((err: unknown): EraVerdict => {
      // Silence over HTTP is an outage, not a legacy server: initialize would only wait as long again.
      if (err instanceof ProbeTimeoutError) throw new SwitchyardError('upstream_timeout', `cannot connect to ${upstream.url}: ${err.message}`, { upstream: upstream.url });
      // Anything else (refused, reset): initialize fails the way it always has, with its own message.
      return { era: 'legacy' };
    });
    if (verdict.era === 'legacy') {
      const legacy = await this.connectLegacy(upstream);
      return legacy === MODERN_ONLY ? this.connectModern(upstream) : legacy;
    }
    if (verdict.only) return this.connectModern(upstream);
    const legacy = await this.connectLegacy(upstream).catch((): typeof MODERN_ONLY => MODERN_ONLY);
    if (legacy === MODERN_ONLY) return this.connectModern(upstream, verdict.discover);
    this.bothEras.set(key, verdict.discover ? { discover: verdict.discover } : {});
    return legacy;
  }

  private async connectModern(upstream: UpstreamAddress, discover?: Record<string, unknown>): Promise<UpstreamConnection> {
    if (upstream.transport === 'sse') {
      throw new SwitchyardError('upstream_unavailable', `${upstream.url} speaks only MCP 2026-07-28, which has no SSE transport: configure it as streamable-http`, { upstream: upstream.url });
    }
    let target: ModernTarget;
    if (upstream.transport === 'stdio') {
      target = { transport: 'stdio', command: upstream.command!, args: upstream.args ?? [], env: upstream.env, cwd: upstream.cwd, maxMessageBytes: this.maxResultBytes };
    } else if (upstream.oauth) {
      // The same sign-in as the 2025 era.
      const { authProvider, fetch } = await this.signIn(upstream, upstream.oauth, this.http.fetch as typeof globalThis.fetch);
      target = { transport: 'streamable-http', url: new URL(upstream.url), fetch: fetch as typeof globalThis.fetch, headers: upstream.headers, authProvider: authProvider as unknown as ModernOAuthProvider };
    } else {
      target = { transport: 'streamable-http', url: new URL(upstream.url), fetch: this.http.fetch as typeof fetch, headers: upstream.headers };
    }
    try {
      // Its InputRequiredResult questions go to the caller of the call they belong to (its own async
      // context); its log messages to the call's run, as on a 2025 connection; its listen stream's
      // notifications reach the same listeners as a 2025 upstream's unsolicited ones.
      const events = { resourceUpdated: (params: { uri: string } & Record<string, unknown>) => this.subscriptions.resourceUpdated(upstream, params), toolListChanged: () => this.subscriptions.toolListChanged(upstream) };
      let connection: ModernUpstreamConnection | undefined;
      const log = (entry: UpstreamLogEntry) => passLog(connection ? this.inFlight.callFor(connection) : currentCall.getStore(), entry);
      connection = await ModernUpstreamConnection.open(target, CLIENT_INFO, this.connectTimeoutMs, (kind, params, key) => askCaller(kind, params, currentCall.getStore(), false, key), events, discover, log);
      return connection;
    } catch (err) {
      // upstream_auth_required (the owner has not connected it, or must again) is said as it is.
      if (SwitchyardError.is(err)) throw err;
      const timedOut = err instanceof McpError && err.code === ErrorCode.RequestTimeout;
      throw new SwitchyardError(timedOut ? 'upstream_timeout' : 'upstream_unavailable', `cannot connect to ${upstream.url} on MCP 2026-07-28: ${(err as Error).message}`, { upstream: upstream.url });
    }
  }

  /** Initialize at the newest 2025 version; MODERN_ONLY when the upstream refuses it for 2026-07-28. */
  private async connectLegacy(upstream: UpstreamAddress): Promise<Client | typeof MODERN_ONLY> {
    const { transport, stderr } = await legacyTransport(upstream, { maxMessageBytes: this.maxResultBytes, fetch: this.http.fetch as typeof fetch, signIn: (name, inner) => this.signIn(upstream, name, inner) });
    // Declared so upstreams offer their elicitation and sampling tools; each request is passed to
    // the caller of the call it belongs to (or fails that run when the caller cannot answer).
    const client = new Client(CLIENT_INFO, { capabilities: { elicitation: {}, sampling: {} } });
    this.answerCallerRequests(client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.subscriptions.toolListChanged(upstream);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      this.subscriptions.resourceUpdated(upstream, notification.params as { uri: string } & Record<string, unknown>);
    });
    // The SSE handshake waits for an endpoint event with no timeout of its own, so the whole
    // connect is raced against one deadline.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `no handshake within ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs);
    });
    try {
      const connecting = () => client.connect(transport, { timeout: this.connectTimeoutMs });
      const failAll = (err: Error) => this.inFlight.failAll(client, err);
      await Promise.race([upstream.transport === 'sse' ? currentStream.run({ failAll }, connecting) : connecting(), deadline]);
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      if (SwitchyardError.is(err)) throw err;
      if (speaksOnlyModern(err)) return MODERN_ONLY;
      const timedOut = err instanceof McpError && err.code === ErrorCode.RequestTimeout;
      const said = stderr();
      throw new SwitchyardError(timedOut ? 'upstream_timeout' : 'upstream_unavailable', `cannot connect to ${upstream.url}: ${(err as Error).message}${said ? ` (stderr: ${said})` : ''}`, { upstream: upstream.url });
    } finally {
      clearTimeout(timer);
    }
  }

  private drop(key: string, client: UpstreamConnection): void {
    const current = this.connections.get(key);
    if (!current) return;
    current.then((c) => {
      if (c === client && this.connections.get(key) === current) this.connections.delete(key);
    }, () => {});
    client.close().catch(() => {});
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((p) => p.then((c) => c.close()).catch(() => {})));
    this.http.close();
  }
}
