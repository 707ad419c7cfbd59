// What an MCP caller's session holds in this process beyond its requests: the log level it set
// (logging/setLevel), the resources it subscribed to on a virtual server, and the one stream (GET)
// that carries notifications/resources/updated to it. The faces stay stateless for everything
// else; this state lives in the process that received it, bounded by config, and goes when the
// caller does (DELETE, or its stream closed and the idle time passed). Upstream subscriptions are
// shared: the first caller's subscribe is forwarded, the last one's unsubscribe too. Every session
// (a 2026 listen is one too) counts against its credential's fair share (core's fair-share.ts), and
// a stream that has sent nothing for the stream idle time is ended, so a quiet one holds no room.
import { createHash } from 'node:crypto';
import { ShareCounts, SwitchyardError, countsAgainst, shareRefusalText, sharerOf, type Sharer, type ShareLimits, type TokenScope, type UpstreamLogEntry } from '@switchyard/core';

/** The spec's log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Whether a message at `level` is at or above the caller's `threshold` (unknown levels pass). */
export function logPasses(level: string, threshold: LogLevel): boolean {
  const at = LOG_LEVELS.indexOf(level as LogLevel);
  return at < 0 || at >= LOG_LEVELS.indexOf(threshold);
}

/** The notification a log message becomes for the caller. */
export const logNotificationOf = (entry: UpstreamLogEntry) => ({ method: 'notifications/message' as const, params: { level: entry.level as LogLevel, ...(entry.logger !== undefined ? { logger: entry.logger } : {}), data: entry.data } });

export interface CallerSessionLimits {
  /** Sessions this process holds state for (log level, subscriptions, a stream). */
  maxSessions: number;
  /** Sessions (and listens) one credential may hold here: its share of maxSessions. */
  maxPerCredential: number;
  /** The part of maxSessions (0 to below 1) keyless credentials together may not take. */
  keyedReserve: number;
  /** How long a stream (GET or subscriptions/listen) may send nothing before it is ended. */
  streamIdleMs: number;
  /** Resource subscriptions one session may hold. */
  maxSubscriptions: number;
  /** How long a session without an open stream keeps its state after its last request. */
  idleMs: number;
}

/** Where a session's notifications go: its open GET stream. */
export interface SessionStream {
  send(message: Record<string, unknown>): void;
  close(): void;
}

/** Forwards a subscription request to an imported server (resources/subscribe, resources/unsubscribe). */
export type SubscriptionForward = (server: string, method: 'resources/subscribe' | 'resources/unsubscribe', params: { uri: string }) => Promise<unknown>;

/** Who holds a session: the credential's identity (another one cannot use or end it) and its share. */
export interface Holder {
  id: string;
  share: Sharer;
}

interface Session {
  /** Who opened it: another credential cannot use or end it. */
  holder: Holder;
  level?: LogLevel;
  /** `server\0uri` keys. */
  subscriptions: Set<string>;
  stream?: SessionStream;
  /** When it was last used while it had no stream (for the idle sweep). */
  lastSeen: number;
  /** When its stream opened or last sent something (for the stream idle sweep). */
  lastSent: number;
}

/** Where the sessions' fair share is configured, for its refusals. */
const SHARE_CONFIG = { perCredential: 'mcp.sessions.maxPerCredential', reserve: 'mcp.sessions.keyedReserve', total: 'mcp.sessions.maxSessions' };

const subscriptionKey = (server: string, uri: string) => `${server}\0${uri}`;

/** The ids of listens begin with a NUL, which no mcp-session-id header can carry: never a caller's session id. */
const LISTEN_PREFIX = '\0listen:';

/**
 * A credential's identity for binding sessions to it, without keeping a token's text, and its
 * share (counted by the token's fingerprint: every narrowed text of one token is one share).
 */
export function holderOf(credential: { kind: 'owner' } | { kind: 'token'; token: string; scope: Pick<TokenScope, 'id' | 'fingerprint'> }): Holder {
  if (credential.kind === 'owner') return { id: 'owner', share: sharerOf(credential) };
  return { id: `token:${createHash('sha256').update(credential.token).digest('hex').slice(0, 32)}`, share: sharerOf(credential) };
}

export class CallerSessions {
  private readonly sessions = new Map<string, Session>();
  /** The sessions' counts per credential and keyless pool, for their fair shares. */
  private readonly shares = new ShareCounts();
  /** Sessions subscribed to each server's resource: the upstream is subscribed while this is not empty. */
  private readonly subscribers = new Map<string, Set<string>>();
  /** The upstream subscribe in flight or done, per server's resource. */
  private readonly upstreamReady = new Map<string, Promise<unknown>>();
  /** Sessions their callers ended here (`holder\0id`), oldest first: their id is not taken again. */
  private readonly endedIds = new Set<string>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Listens opened in this process, for their ids. */
  private listens = 0;

  constructor(
    private readonly limits: CallerSessionLimits,
    private readonly forward: SubscriptionForward,
    private readonly onError: (message: string, fields: Record<string, unknown>) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** The level a session set, if it set one here (none: the caller gets no log messages). */
  levelOf(sessionId: string | undefined, holder: Holder): LogLevel | undefined {
    if (sessionId === undefined || this.sessions.size === 0) return undefined;
    const session = this.sessions.get(sessionId);
    if (!session || session.holder.id !== holder.id) return undefined;
    session.lastSeen = this.now();
    return session.level;
  }

  setLevel(sessionId: string, holder: Holder, level: LogLevel): void {
    this.sessionFor(sessionId, holder).level = level;
  }

  /** Subscribes the session to `uri` of `server`; the upstream is asked once for all sessions. */
  async subscribe(sessionId: string, holder: Holder, server: string, uri: string): Promise<void> {
    const session = this.sessionFor(sessionId, holder);
    const key = subscriptionKey(server, uri);
    if (!session.subscriptions.has(key)) {
      if (session.subscriptions.size >= this.limits.maxSubscriptions) {
        throw new SwitchyardError('session_limit', `this session already holds ${this.limits.maxSubscriptions} resource subscriptions (config mcp.sessions.maxSubscriptions); unsubscribe from one first`, { limit: this.limits.maxSubscriptions });
      }
      session.subscriptions.add(key);
      let sessions = this.subscribers.get(key);
      if (!sessions) this.subscribers.set(key, (sessions = new Set()));
      sessions.add(sessionId);
      if (!this.upstreamReady.has(key)) this.upstreamReady.set(key, this.forward(server, 'resources/subscribe', { uri }));
    }
    try {
      await this.upstreamReady.get(key);
    } catch (err) {
      // The upstream refused (or is down): nobody holds this subscription, the next subscribe asks again.
      if (this.upstreamReady.get(key) !== undefined) this.upstreamReady.delete(key);
      this.leave(sessionId, key, false);
      throw err;
    }
  }

  async unsubscribe(sessionId: string, holder: Holder, server: string, uri: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session || session.holder.id !== holder.id) return;
    session.lastSeen = this.now();
    await this.leave(sessionId, subscriptionKey(server, uri), true);
  }

  /**
   * Opens the session's notification stream; returns what to call when it closes. A session has
   * one stream at a time; once it closes, the session's state waits the idle time for the caller
   * to come back, then goes.
   */
  openStream(sessionId: string, holder: Holder, stream: SessionStream): () => void {
    const session = this.sessionFor(sessionId, holder);
    if (session.stream) throw new SwitchyardError('session_limit', 'this session already has an open stream (GET); one per session', { limit: 1 });
    session.stream = stream;
    session.lastSent = this.now();
    return () => {
      if (session.stream !== stream) return;
      delete session.stream;
      session.lastSeen = this.now();
      this.startSweeping();
    };
  }

  /**
   * The caller ended its session (DELETE): everything it held goes now, and the id is refused from
   * then on (the spec's 404, after which a client starts a new session). Whether it held state here.
   * Ended ids are remembered up to maxSessions, the oldest forgotten first.
   */
  end(sessionId: string, holder: Holder): boolean {
    const ended = `${holder.id}\0${sessionId}`;
    this.endedIds.delete(ended);
    this.endedIds.add(ended);
    if (this.endedIds.size > this.limits.maxSessions) this.endedIds.delete(this.endedIds.values().next().value!);
    const session = this.sessions.get(sessionId);
    if (!session || session.holder.id !== holder.id) return false;
    this.drop(sessionId, session);
    return true;
  }

  /** Whether this holder ended the session here (another credential's requests with the id are not refused). */
  hasEnded(sessionId: string | undefined, holder: Holder): boolean {
    return sessionId !== undefined && this.endedIds.size > 0 && this.endedIds.has(`${holder.id}\0${sessionId}`);
  }

  /**
   * A 2026-07-28 caller's subscriptions/listen: held as a session of its own (it counts against
   * maxSessions and is never evicted while open) whose subscriptions share the upstream ones with
   * the 2025 sessions. One credential's open listens hold at most maxSubscriptions URIs together,
   * else session_limit before anything is subscribed. Resolves with the URIs the upstream took
   * (one it refused is left out, and logged) and what ends the listen, releasing them.
   */
  async listen(holder: Holder, server: string, uris: string[], stream: SessionStream): Promise<{ honored: string[]; close(): void }> {
    const wanted = [...new Set(uris)];
    let held = 0;
    for (const [id, session] of this.sessions) if (id.startsWith(LISTEN_PREFIX) && session.holder.share.key === holder.share.key) held += session.subscriptions.size;
    if (held + wanted.length > this.limits.maxSubscriptions) {
      throw new SwitchyardError('session_limit', `this credential's open subscriptions/listen streams would hold ${held + wanted.length} resource subscriptions, more than ${this.limits.maxSubscriptions} (config mcp.sessions.maxSubscriptions); close one first`, { limit: this.limits.maxSubscriptions, held });
    }
    const id = `${LISTEN_PREFIX}${++this.listens}`;
    const session = this.sessionFor(id, holder);
    // Held open from the start: the idle sweep and the eviction pass over it until it closes (or sends nothing for streamIdleMs).
    session.stream = stream;
    session.lastSent = this.now();
    const outcomes = await Promise.allSettled(wanted.map((uri) => this.subscribe(id, holder, server, uri)));
    const honored = wanted.filter((uri, i) => {
      const outcome = outcomes[i]!;
      if (outcome.status === 'rejected') this.onError('upstream resource subscribe for a listen failed', { server, uri, error: (outcome.reason as Error).message });
      return outcome.status === 'fulfilled';
    });
    return {
      honored,
      close: () => {
        if (this.sessions.get(id) === session) this.drop(id, session);
      },
    };
  }

  /** An upstream said a resource changed: every session subscribed to it is told on its stream. */
  resourceUpdated(server: string, params: { uri: string } & Record<string, unknown>): void {
    const sessions = this.subscribers.get(subscriptionKey(server, params.uri));
    for (const id of sessions ?? []) {
      const session = this.sessions.get(id);
      if (!session?.stream) continue;
      session.lastSent = this.now();
      session.stream.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params });
    }
  }

  /** Sessions held, and subscriptions held upstream (for tests and metrics). */
  get size(): { sessions: number; upstreamSubscriptions: number } {
    return { sessions: this.sessions.size, upstreamSubscriptions: this.subscribers.size };
  }

  close(): void {
    for (const [id, session] of [...this.sessions]) {
      session.stream?.close();
      this.drop(id, session);
    }
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** The table's bounds, as the fair-share rule reads them. */
  private get shareLimits(): ShareLimits {
    return { total: this.limits.maxSessions, perCredential: this.limits.maxPerCredential, keyedReserve: this.limits.keyedReserve };
  }

  /**
   * The session's state, made on first use. Past a bound of the fair share (the credential's own,
   * the keyless pool, the process's), the oldest idle session counted against that bound (no
   * stream, no subscriptions: a log level only) makes room, else session_limit.
   */
  private sessionFor(sessionId: string, holder: Holder): Session {
    const existing = this.sessions.get(sessionId);
    if (existing) {
      if (existing.holder.id !== holder.id) throw new SwitchyardError('scope_denied', 'this MCP session was opened with another credential', {});
      existing.lastSeen = this.now();
      return existing;
    }
    for (let refusal = this.shares.refusal(holder.share, this.shareLimits); refusal; refusal = this.shares.refusal(holder.share, this.shareLimits)) {
      const met = refusal;
      const idle = [...this.sessions].find(([, s]) => !s.stream && s.subscriptions.size === 0 && countsAgainst(met, holder.share, s.holder.share));
      if (!idle) throw new SwitchyardError('session_limit', shareRefusalText(met, 'MCP sessions with state (streams and listens among them)', SHARE_CONFIG), { limit: met.limit, bound: met.bound });
      this.drop(idle[0], idle[1]);
    }
    const session: Session = { holder, subscriptions: new Set(), lastSeen: this.now(), lastSent: this.now() };
    this.sessions.set(sessionId, session);
    this.shares.add(holder.share);
    this.startSweeping();
    return session;
  }

  /** Takes the session off one subscription; the last one off unsubscribes upstream. */
  private async leave(sessionId: string, key: string, tellUpstream: boolean): Promise<void> {
    this.sessions.get(sessionId)?.subscriptions.delete(key);
    const sessions = this.subscribers.get(key);
    if (!sessions?.delete(sessionId) || sessions.size > 0) return;
    this.subscribers.delete(key);
    const ready = this.upstreamReady.get(key);
    this.upstreamReady.delete(key);
    if (!tellUpstream || !ready) return;
    const [server, uri] = key.split('\0') as [string, string];
    try {
      await ready;
      await this.forward(server, 'resources/unsubscribe', { uri });
    } catch (err) {
      this.onError('upstream resource unsubscribe failed', { server, uri, error: (err as Error).message });
    }
  }

  private drop(sessionId: string, session: Session): void {
    if (this.sessions.get(sessionId) !== session) return;
    this.sessions.delete(sessionId);
    this.shares.remove(session.holder.share);
    delete session.stream;
    for (const key of [...session.subscriptions]) void this.leave(sessionId, key, true);
  }

  /**
   * Sessions without a stream go after the idle time, and streams that sent nothing for the stream
   * idle time are ended (the caller may open a new one); the sweep runs only while there are sessions.
   */
  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(250, Math.min(this.limits.idleMs / 2, this.limits.streamIdleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of [...this.sessions]) {
      if (!session.stream && session.lastSeen <= now - this.limits.idleMs) this.drop(id, session);
      else if (session.stream && session.lastSent <= now - this.limits.streamIdleMs) {
        const stream = session.stream;
        delete session.stream;
        session.lastSeen = now;
        stream.close();
      }
    }
    if (this.sessions.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
