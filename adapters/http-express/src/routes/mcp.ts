// /mcp: Switchyard as an MCP server over streamable HTTP, stateless. Each POST gets a fresh SDK
// server and transport bound to the request's credential, so any service process can answer any
// request (no session to pin). Tools are the capabilities the credential may invoke; a call goes
// through the same authorize + dispatch as POST /api/dispatch, so ledger, lineage and approvals match.
import { Router, json, type Request, type RequestHandler } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallerExchange, capabilitiesOf, createSwitchyardMcpServer, isInitialize, sessionIdFor, type CallerTools } from '@switchyard/mcp';
import { SwitchyardError, mayInvoke, runDenial } from '@switchyard/core';
import { authorize, callerOf, credentialOf, type Credential } from '../credentials.js';
import { baseUrlOf } from '../base-url.js';
import type { Needs } from '../context.js';

/** What this module uses of the HTTP context: it receives nothing else. */
type Ctx = Needs<'apiKeys' | 'blobs' | 'bodyLimitBytes' | 'dispatch' | 'logger' | 'publicBaseUrl' | 'registry' | 'tokenUses' | 'tokens'>;

const VERSION = '0.1.0';

/** The tools of one request's credential (owner or token; the public credential never gets here). */
function callerTools(req: Request, ctx: Ctx, cred: Exclude<Credential, { kind: 'public' }>): CallerTools {
  return {
    list() {
      // Listing is not a use of the token (nothing runs), so no token use is recorded per key.
      // Keyless tokens would only ever be refused an auth-required run: not offered as tools.
      return ctx.registry.list().filter((c) => mayInvoke(cred, c));
    },
    async call(key, args, live) {
      try {
        // registry.require throws unknown_capability with did_you_mean before any token use.
        // A tool name matches its key in any letter case; the move and the record use the registered key.
        const { capability } = ctx.registry.require(key);
        const allowed = await authorize(req, ctx, `invoke:${capability.key}`);
        return await ctx.dispatch.dispatch({ key: capability.key, body: args, source: 'mcp', ...live }, callerOf(allowed));
      } catch (err) {
        // The client only sees "internal error" for these; the log keeps the cause, as the error middleware does.
        if (!SwitchyardError.is(err)) ctx.logger.error('unhandled error', { path: req.path, tool: key, error: (err as Error)?.stack ?? String(err) });
        throw err;
      }
    },
  };
}

/** Stateless mode has no stream to open (GET) or session to end (DELETE): 405, as the SDK's examples answer. */
const methodNotAllowed: RequestHandler = (_req, res) => {
  res.status(405).set('allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC by POST' }, id: null });
};

/**
 * A tools/call answered as a stream (SSE) rather than one JSON body: when the caller asked for
 * progress, or its client can be asked things (elicitation, sampling) while the call runs.
 */
function streams(body: unknown, sessionId: string | undefined): boolean {
  const messages = Array.isArray(body) ? body : [body];
  const caps = capabilitiesOf(sessionId);
  return messages.some((m) => {
    if (typeof m !== 'object' || m === null || (m as { method?: unknown }).method !== 'tools/call') return false;
    const meta = ((m as { params?: { _meta?: { progressToken?: unknown } } }).params ?? {})._meta;
    return meta?.progressToken !== undefined || caps.elicitation || caps.sampling;
  });
}

export function mcpRoutes(ctx: Ctx): Router {
  const router = Router();
  // Answers to our questions and withdrawn calls arrive in their own POSTs: one exchange per service.
  const exchange = new CallerExchange();

  // The credential is decided before the body is read or any MCP processing: a bad key or token is
  // our coded 401, and so is no credential at all (tools are for callers who may invoke).
  const credential: RequestHandler = async (req, res, next) => {
    const cred = await credentialOf(req, ctx);
    const noCredential = runDenial(cred, 'the MCP server', `${baseUrlOf(req, ctx.publicBaseUrl)}/start`);
    if (noCredential) throw noCredential;
    res.locals['credential'] = cred;
    next();
  };

  router.post('/mcp', credential, json({ limit: ctx.bodyLimitBytes }), async (req, res) => {
    const cred = res.locals['credential'] as Exclude<Credential, { kind: 'public' }>;
    const sessionHeader = req.get('mcp-session-id');
    if (exchange.intercept(req.body, sessionHeader)) {
      res.status(202).end();
      return;
    }
    // The session id only carries what the caller's client declared; nothing is kept server-side.
    const sessionId = isInitialize(req.body) ? sessionIdFor(req.body.params) : sessionHeader;
    if (isInitialize(req.body)) res.setHeader('mcp-session-id', sessionId!);
    const server = createSwitchyardMcpServer({
      tools: callerTools(req, ctx, cred),
      baseUrl: baseUrlOf(req, ctx.publicBaseUrl),
      version: VERSION,
      blobs: ctx.blobs,
      exchange,
      ...(sessionId ? { session: { id: sessionId, capabilities: capabilitiesOf(sessionId) } } : {}),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streams(req.body, sessionHeader) });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.get('/mcp', methodNotAllowed);
  router.delete('/mcp', methodNotAllowed);

  return router;
}
