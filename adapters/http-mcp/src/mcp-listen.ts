// subscriptions/listen (MCP 2026-07-28) on every face: one request answered as a stream (SSE), first
// notifications/subscriptions/acknowledged with the filter honored, then the changes it asked for,
// each stamped with the listen's id, until the caller closes the stream or the service ends it with
// the empty result. Served by hand, not by the v2 SDK's listen router: that router acknowledges
// before anything is subscribed, honors resourceSubscriptions all or none by the server's declared
// capabilities, has one limit per process answered -32603 without a code, and has no hook to
// subscribe upstream or to release. Here the upstream is subscribed first (shared with the 2025
// sessions through CallerSessions), the acknowledgement names only the URIs it took, limits are per
// credential with session_limit (a listen is one of its credential's sessions: its fair share), a
// listen that has sent nothing for mcp.sessions.streamIdleMs is ended gracefully (the caller listens
// again), and shutdown ends each stream gracefully. The SDK still checks the
// request as it would serve it (admitModern): envelope, headers, version, the filter's shape.
import type { Request, Response } from 'express';
import { SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { rpcErrorOf, type CallerSessions, type Holder } from '@switchyard/mcp';
import { admitModern } from './mcp-transport.js';

/** A comment line now and then keeps proxies from closing a quiet stream, and finds a caller gone. */
const KEEPALIVE_MS = 25_000;
/** A caller that stops reading its stream is not buffered for without end: past this, the stream is closed. */
const MAX_UNREAD_BYTES = 1024 * 1024;
/** How long shutdown waits for the closing results to be written. */
const CLOSE_WAIT_MS = 2000;

/** What a face can honor of a listen filter. */
export interface ListenFace {
  /** The server's name in the closing result's _meta. */
  name: string;
  version: string;
  /** An imported server's resources (/mcp/servers/<name>), and whether this credential may read them (resources/read's rule). */
  resources?: { server: string; readable: boolean };
}

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export class CallerListens {
  /** Each open listen's graceful end (shutdown), and the response it writes to. */
  private readonly open = new Map<() => void, Response>();

  constructor(private readonly sessions: CallerSessions) {}

  /**
   * Answers one subscriptions/listen. Honored: resourceSubscriptions on an imported server's face,
   * when the credential may read its resources, for the URIs the upstream took. Never honored (left
   * out of the acknowledgement): the list_changed kinds, as no face sends them in either era (their
   * tools/list is cut to the caller and declared listChanged: false). Nothing honored: the
   * acknowledgement, then the empty result at once, as the SDK's router does.
   */
  async serve(req: Request, res: Response, holder: Holder, face: ListenFace): Promise<void> {
    if (!(await admitModern(req, res))) return;
    const message = req.body as { id: string | number; params: { notifications: Filter } };
    const id = message.id;
    const requested = message.params.notifications;
    const uris = face.resources?.readable ? (requested.resourceSubscriptions ?? []) : [];
    let ready = false;
    let ended = res.destroyed;
    const early: Record<string, unknown>[] = [];
    const write = (payload: Record<string, unknown>) => {
      if (ended) return;
      if (res.writableLength > MAX_UNREAD_BYTES) res.destroy();
      else res.write(`event: message\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    const stamped = (notification: Record<string, unknown>) => {
      const params = (notification['params'] ?? {}) as Record<string, unknown>;
      return { ...notification, params: { ...params, _meta: { ...(params['_meta'] as object | undefined), [SUBSCRIPTION_ID_META_KEY]: id } } };
    };
    const graceful = () => {
      write({ jsonrpc: '2.0', id, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id, [SERVER_INFO_META_KEY]: { name: face.name, version: face.version } } } });
      ended = true;
      res.end();
    };
    const stream = {
      // Updates that come while the upstream is being subscribed follow the acknowledgement.
      send: (notification: Record<string, unknown>) => (ready ? write(stamped(notification)) : void early.push(notification)),
      close: graceful,
    };
    let listening: { honored: string[]; close(): void } = { honored: [], close: () => {} };
    res.on('close', () => {
      ended = true;
      listening.close();
    });
    if (uris.length > 0 && face.resources) {
      try {
        listening = await this.sessions.listen(holder, face.resources.server, uris, stream);
      } catch (err) {
        // Past a limit (or the process's sessions full): a coded JSON-RPC error, nothing subscribed.
        const rpc = rpcErrorOf(err);
        if (!res.destroyed) res.status(200).json({ jsonrpc: '2.0', id, error: { code: rpc.code, message: rpc.message, ...(rpc.data !== undefined ? { data: rpc.data } : {}) } });
        return;
      }
      if (ended) return listening.close();
    }
    const honored: Filter = listening.honored.length > 0 ? { resourceSubscriptions: listening.honored } : {};
    res.status(200);
    for (const [name, value] of Object.entries({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' })) res.setHeader(name, value);
    res.flushHeaders();
    write(stamped({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: honored } }));
    if (listening.honored.length === 0) return graceful();
    ready = true;
    for (const notification of early.splice(0)) write(stamped(notification));
    const keepalive = setInterval(() => {
      if (!ended) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    keepalive.unref();
    this.open.set(graceful, res);
    res.on('close', () => {
      clearInterval(keepalive);
      this.open.delete(graceful);
    });
  }

  /** Open listens in this process (for tests and metrics). */
  get size(): number {
    return this.open.size;
  }

  /** Shutdown: every open listen ends with the empty result (the spec's graceful close), written before the connections go. */
  async close(): Promise<void> {
    const closing = [...this.open].map(([end, res]) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CLOSE_WAIT_MS);
        timer.unref();
        res.once('close', () => (clearTimeout(timer), resolve()));
        end();
      }),
    );
    await Promise.all(closing);
  }
}
