// Virtual MCP servers over streamable HTTP, stateless like /mcp: /mcp/servers/<name> is one imported
// server as itself (tools under their upstream names, resources and prompts forwarded), /mcp/v/<name>
// a curated set of capabilities named in config (mcp.virtualServers). Tool calls go through the same
// callerTools as /mcp: authorize + dispatch, ledgered under the capability key.
import { Router, json } from 'express';
import { createVirtualMcpServer, type CallerTools } from '@switchyard/mcp';
import { SwitchyardError, mayReadServer } from '@switchyard/core';
import { baseUrlOf } from '../base-url.js';
import type { HttpContext } from '../context.js';
import { mcpParamsCheck } from '../mcp-params.js';
import { serveMcp } from '../mcp-transport.js';
import { MCP_VERSION, callerTools, mcpCaller, mcpCredential, methodNotAllowed } from './mcp.js';

/** The caller's tools cut to `keys` (a server's imports, or a curated list), in the registry's letter case. */
function toolsAmong(all: CallerTools, keys: string[]): CallerTools {
  const wanted = new Set(keys.map((k) => k.toUpperCase()));
  return { list: () => all.list().filter((c) => wanted.has(c.key.toUpperCase())), call: (key, args) => all.call(key, args) };
}

export function virtualMcpRoutes(ctx: HttpContext): Router {
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
    const server = createVirtualMcpServer({
      name,
      version: MCP_VERSION,
      tools,
      // An imported tool is offered under the name its server gave it.
      nameOf: (c) => c.tool ?? c.key,
      baseUrl: baseUrlOf(req, ctx.publicBaseUrl),
      pageSize: ctx.mcp.pageSize,
      passThrough: { readable: mayReadServer(cred, imported), forward: (method, params) => ctx.upstreams.forward(name, method, params) },
    });
    await serveMcp(server, req, res);
  });

  router.post('/mcp/v/:name', credential, body, mcpParamsCheck, async (req, res) => {
    const name = req.params['name'] as string;
    const curated = Object.hasOwn(ctx.mcp.virtualServers, name) ? ctx.mcp.virtualServers[name] : undefined;
    if (!curated) throw new SwitchyardError('not_found', `no virtual server named ${JSON.stringify(name)} in config mcp.virtualServers`, { name, servers: Object.keys(ctx.mcp.virtualServers).sort() });
    const server = createVirtualMcpServer({
      name,
      version: MCP_VERSION,
      tools: toolsAmong(callerTools(req, ctx, mcpCaller(res)), curated.tools),
      nameOf: (c) => c.key,
      baseUrl: baseUrlOf(req, ctx.publicBaseUrl),
      pageSize: ctx.mcp.pageSize,
      ...(curated.description ? { instructions: curated.description } : {}),
    });
    await serveMcp(server, req, res);
  });

  for (const path of ['/mcp/servers/:name', '/mcp/v/:name']) {
    router.get(path, methodNotAllowed);
    router.delete(path, methodNotAllowed);
  }
  return router;
}
