// The server-to-caller stream of a session on /mcp/servers/<name> (streamable HTTP's GET): it
// carries notifications/resources/updated for the resources the session subscribed to. DELETE (on
// any face) ends the session here: its log level and subscriptions go (upstream too, when it was
// the last subscriber). Both act on the state this process holds; see docs/agents.md for several processes.
// A stream counts as one of its credential's sessions (its fair share), and one that has sent
// nothing for mcp.sessions.streamIdleMs is ended by CallerSessions (keepalives do not count).
import { Router, type RequestHandler } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { holderOf, type CallerSessions, type SessionIds } from '@switchyard/mcp';
import { mcpCaller, mcpCredential, methodNotAllowed, refusedSession, type McpCtx } from '../mcp-face.js';

/** A comment line now and then keeps proxies from closing a quiet stream, and finds a caller gone. */
const KEEPALIVE_MS = 25_000;
/** A caller that stops reading its stream is not buffered for without end: past this, the stream is closed. */
const MAX_UNREAD_BYTES = 1024 * 1024;

/** DELETE with the session's id: what this process holds for it goes (200), once (then 404); without one, 405; an id not issued, 404. */
export const endSession = (sessions: CallerSessions, ids: SessionIds): RequestHandler => (req, res) => {
  const sessionId = req.get('mcp-session-id');
  if (!sessionId) return methodNotAllowed(req, res, () => {});
  if (refusedSession(req, res, ids, sessions)) return;
  sessions.end(sessionId, holderOf(mcpCaller(res)));
  res.status(200).end();
};

export function sessionStreamRoutes(ctx: McpCtx, sessions: CallerSessions, ids: SessionIds): Router {
  const router = Router();
  const credential = mcpCredential(ctx);

  const serverOf = (name: string): void => {
    if (!ctx.upstreams.keysOf(name)) throw new SwitchyardError('upstream_not_found', `no upstream server named ${JSON.stringify(name)} in config upstreams.servers`, { name, upstreams: ctx.upstreams.list().map((u) => u.name) });
  };

  router.get('/mcp/servers/:name', credential, (req, res) => {
    serverOf(req.params['name'] as string);
    const sessionId = req.get('mcp-session-id');
    if (!sessionId) return methodNotAllowed(req, res, () => {});
    if (refusedSession(req, res, ids, sessions)) return;
    let open = true;
    const write = (text: string) => {
      if (!open) return;
      if (res.writableLength > MAX_UNREAD_BYTES) res.destroy();
      else res.write(text);
    };
    const close = sessions.openStream(sessionId, holderOf(mcpCaller(res)), {
      send: (message) => write(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
      close: () => res.end(),
    });
    res.status(200);
    for (const [name, value] of Object.entries({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'mcp-session-id': sessionId })) res.setHeader(name, value);
    res.flushHeaders();
    const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
    keepalive.unref();
    res.on('close', () => {
      open = false;
      clearInterval(keepalive);
      close();
    });
  });

  const end = endSession(sessions, ids);
  router.delete('/mcp/servers/:name', credential, (req, res, next) => {
    serverOf(req.params['name'] as string);
    end(req, res, next);
  });

  return router;
}
