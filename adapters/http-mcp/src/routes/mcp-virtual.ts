// Virtual MCP servers over streamable HTTP, stateless like /mcp: /mcp/servers/<name> is one imported
// server as itself (tools under their upstream names, resources and prompts forwarded, resource
// subscriptions kept with the caller's session and their updates sent on its GET stream), /mcp/v/<name>
// a curated set of capabilities named in config (mcp.virtualServers). Tool calls go through the same
// callerTools as /mcp: authorize + dispatch, ledgered under the capability key.
import { Router, json } from 'express';
import { createModernMcpServer, virtualFace, type PausedCalls, type CallerExchange, type CallerSessions, type CallerTools, type SessionIds } from '@switchyard/mcp';
import { SwitchyardError, mayReadServer, type CallerChannel } from '@switchyard/core';
import { mcpParamsCheck } from '../mcp-params.js';
import { answerMcp, callerTools, mcpCaller, mcpCredential, methodNotAllowed, type McpCtx } from '../mcp-face.js';
import { endSession, sessionStreamRoutes } from './mcp-session-stream.js';
import type { CallerListens } from '../mcp-listen.js';

/** The caller's tools cut to `keys` (a server's imports, or a curated list), in the registry's letter case. */
function toolsAmong(all: CallerTools, keys: string[]): CallerTools {
  const wanted = new Set(keys.map((k) => k.toUpperCase()));
  return { list: () => all.list().filter((c) => wanted.has(c.key.toUpperCase())), call: (key, args, live, idempotencyKey) => all.call(key, args, live, idempotencyKey) };
}

export function virtualMcpRoutes(ctx: McpCtx, exchange: CallerExchange, sessions: CallerSessions, ids: SessionIds, paused: PausedCalls, listens: CallerListens): Router {
  const router = Router();
  const credential = mcpCredential(ctx);
  const body = json({ limit: ctx.bodyLimitBytes });

  router.post('/mcp/servers/:name', credential, body, mcpParamsCheck, async (req, res) => {
    const name = req.params['name'] as string;
    const keys = ctx.upstreams.keysOf(name);
    if (!keys) throw new SwitchyardError('upstream_not_found', `no upstream server named ${JSON.stringify(name)} in config upstreams.servers`, { name, upstreams: ctx.upstreams.list().map((u) => u.name) });
    const cred = mcpCaller(res);
    const tools = toolsAmong(callerTools(req, ctx, cred), keys);
    const imported = keys.flatMap((k) => ctx.registry.get(k)?.capability ?? []);
    const readable = mayReadServer(cred, imported);
    // The caller's era and channel go with each forwarded request (the 2026 face names its era).
    const forward = (method: string, params: Record<string, unknown> | undefined, options?: { callerProtocol?: string; channel?: CallerChannel }) => ctx.upstreams.forward(name, method, params, options);
    // An imported tool is offered under the name its server gave it.
    await answerMcp(req, res, ctx, exchange, sessions, ids, (options) => {
      const session = options.session?.id;
      const subscriptions = session
        ? { subscribe: (uri: string) => sessions.subscribe(session, options.holder, name, uri), unsubscribe: (uri: string) => sessions.unsubscribe(session, options.holder, name, uri) }
        : undefined;
      return virtualFace({ ...options, name, tools, nameOf: (c) => c.shown_name ?? c.tool ?? c.key, passThrough: { readable, forward, ...(subscriptions ? { subscriptions } : {}) } });
    }, (options) => createModernMcpServer({ ...options, name: `switchyard/${name}`, tools, nameOf: (c) => c.shown_name ?? c.tool ?? c.key, passThrough: { readable, forward } }), paused, { listens, face: { name: `switchyard/${name}`, resources: { server: name, readable } } });
  });

  router.post('/mcp/v/:name', credential, body, mcpParamsCheck, async (req, res) => {
    const name = req.params['name'] as string;
    const curated = Object.hasOwn(ctx.mcp.virtualServers, name) ? ctx.mcp.virtualServers[name] : undefined;
    if (!curated) throw new SwitchyardError('not_found', `no virtual server named ${JSON.stringify(name)} in config mcp.virtualServers`, { name, servers: Object.keys(ctx.mcp.virtualServers).sort() });
    const tools = toolsAmong(callerTools(req, ctx, mcpCaller(res)), curated.tools);
    await answerMcp(
      req, res, ctx, exchange, sessions, ids,
      (options) => virtualFace({ ...options, name, tools, nameOf: (c) => c.key, ...(curated.description ? { instructions: curated.description } : {}) }),
      (options) => createModernMcpServer({ ...options, name: `switchyard/${name}`, tools, nameOf: (c) => c.key, ...(curated.description ? { instructions: curated.description } : {}) }),
      paused,
      { listens, face: { name: `switchyard/${name}` } },
    );
  });

  router.use(sessionStreamRoutes(ctx, sessions, ids));
  router.get('/mcp/v/:name', methodNotAllowed);
  router.delete('/mcp/v/:name', credential, endSession(sessions, ids));
  return router;
}
