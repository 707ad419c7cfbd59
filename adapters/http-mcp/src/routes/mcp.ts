// /mcp: Switchyard as an MCP server over streamable HTTP, stateless. Each POST gets a fresh SDK
// server and transport bound to the request's credential, so any service process can answer any
// request (no session to pin); only what a session asks to be kept (its log level, subscriptions)
// lives in the process that answered it (CallerSessions). Tools are the capabilities the credential
// may invoke; a call goes through the same authorize + dispatch as POST /api/dispatch, so ledger,
// lineage and approvals match.
import { Router, json } from 'express';
import { CallerExchange, CallerSessions, PausedCalls, SessionIds, createModernMcpServer, switchyardFace } from '@switchyard/mcp';
import { answerMcp, callerTools, mcpBodyErrors, mcpCaller, mcpCredential, methodNotAllowed, type McpCtx } from '../mcp-face.js';
import { mcpHostGuard } from '../mcp-host-guard.js';
import { mcpParamsCheck } from '../mcp-params.js';
import { virtualMcpRoutes } from './mcp-virtual.js';
import { endSession } from './mcp-session-stream.js';
import { CallerListens } from '../mcp-listen.js';

type Ctx = McpCtx;

/** The MCP faces' routes, and what ends their open streams at shutdown. */
export function mcpRoutes(ctx: Ctx, paused: PausedCalls, ids: SessionIds): { router: Router; close(): Promise<void> } {
  const router = Router();
  // Answers to our questions and withdrawn calls arrive in their own POSTs: one exchange per service.
  const exchange = new CallerExchange();
  // Log levels, resource subscriptions and notification streams of callers' sessions in this process.
  const sessions = new CallerSessions(ctx.mcp.sessions, (server, method, params) => ctx.upstreams.forward(server, method, params), (message, fields) => ctx.logger.warn(message, fields));
  ctx.upstreams.onResourceUpdated((name, params) => sessions.resourceUpdated(name, params));
  // 2026-07-28 callers' subscriptions/listen streams, holding their subscriptions in `sessions`.
  const listens = new CallerListens(sessions);
  router.use('/mcp', mcpHostGuard({ allowedHosts: ctx.mcp.allowedHosts, allowedOrigins: ctx.mcp.allowedOrigins, publicBaseUrl: ctx.publicBaseUrl }));
  const credential = mcpCredential(ctx);

  router.post('/mcp', credential, json({ limit: ctx.bodyLimitBytes }), mcpParamsCheck, async (req, res) => {
    const tools = callerTools(req, ctx, mcpCaller(res));
    await answerMcp(req, res, ctx, exchange, sessions, ids, (options) => switchyardFace({ ...options, tools }), (options) => createModernMcpServer({ ...options, tools }), paused, { listens, face: { name: 'switchyard' } });
  });
  router.get('/mcp', methodNotAllowed);
  router.delete('/mcp', credential, endSession(sessions, ids));
  router.use(virtualMcpRoutes(ctx, exchange, sessions, ids, paused, listens));
  router.use('/mcp', mcpBodyErrors);

  return { router, close: () => listens.close() };
}
