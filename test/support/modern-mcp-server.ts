// An MCP server that speaks only protocol 2026-07-28 (no initialize, no sessions): the v2 server
// SDK's createMcpHandler with `legacy: 'reject'`, over node:http on a free loopback port. It stands
// for an upstream that moved to the current protocol, to show Switchyard imports and calls it.
// With `bothEras` it also serves 2025-11-25 (stateless), as an upstream in the middle of that move.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptedContent, createMcpHandler, inputRequired, inputResponse, McpServer, type CallToolResult, type McpRequestContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';

export interface ModernUpstream {
  url: string;
  /** The JSON-RPC methods it was asked, in order, and the protocol version each request named. */
  seen: Array<{ method: string; version: string | undefined }>;
  /** Adds a tool and tells the subscriptions/listen streams that asked for it (notifications/tools/list_changed). */
  addTool(name: string): void;
  close(): Promise<void>;
}

function build(ctx: McpRequestContext, asking: boolean, added: Set<string>): McpServer {
  const server = new McpServer({ name: 'modern-only', version: '1.0.0' }, { capabilities: { tools: {}, logging: {}, prompts: {} } });
  for (const name of added) server.registerTool(name, { description: `Added later: ${name}`, inputSchema: z.object({}) }, async (): Promise<CallToolResult> => ({ content: [{ type: 'text', text: name }] }));
  server.registerTool(
    'echo',
    { title: 'Echo', description: 'Echoes the message back, with the era that served it', inputSchema: z.object({ message: z.string().min(1) }) },
    async ({ message }): Promise<CallToolResult> => ({ content: [{ type: 'text', text: `${message} (${ctx.era})` }], structuredContent: { message, era: ctx.era } }),
  );
  if (!asking) return server;
  // Logs the SDK's way (ctx.mcpReq.log): at 2026-07-28 only when the request's _meta names a log level.
  server.registerTool(
    'chatty',
    { title: 'Chatty', description: 'Logs two lines while it runs', inputSchema: z.object({}) },
    async (_args, handler): Promise<CallToolResult> => {
      await handler.mcpReq.log('info', 'chatty started');
      await handler.mcpReq.log('debug', 'chatty details');
      return { content: [{ type: 'text', text: `chatty done (${ctx.era})` }] };
    },
  );
  // A prompt that asks for context first (InputRequiredResult on prompts/get), with a requestState of its own.
  server.registerPrompt(
    'briefing',
    { title: 'Briefing', description: 'Asks what the briefing is about, then gives it', argsSchema: z.object({ team: z.string() }) },
    async ({ team }, handler) => {
      const topic = acceptedContent<{ topic: string }>(handler.mcpReq.inputResponses, 'topic')?.topic;
      if (topic === undefined) {
        return inputRequired({
          inputRequests: { topic: inputRequired.elicit({ message: `What should ${team}'s briefing cover?`, requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] } }) },
          requestState: `briefing:${team}`,
        }) as never;
      }
      if (handler.mcpReq.requestState() !== `briefing:${team}`) throw new Error('the retry lost the upstream requestState');
      return { messages: [{ role: 'user', content: { type: 'text', text: `Brief ${team} on ${topic}` } }] };
    },
  );
  // Tools that ask the caller the revision's way: InputRequiredResult, then the retry's answers.
  // The upstream's own requestState carries what it was asked, so the retry is checked against it.
  server.registerTool(
    'confirm',
    { title: 'Confirm', description: 'Asks the caller to confirm (elicitation), then says what it answered', inputSchema: z.object({ action: z.string() }) },
    async ({ action }, handler): Promise<CallToolResult> => {
      const answer = inputResponse(handler.mcpReq.inputResponses, 'confirm');
      if (answer.kind === 'missing') {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Really ${action}?`, requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'] } }) },
          requestState: `asked:${action}`,
        }) as never;
      }
      if (handler.mcpReq.requestState() !== `asked:${action}`) throw new Error('the retry lost the upstream requestState');
      const sure = acceptedContent<{ sure: boolean }>(handler.mcpReq.inputResponses, 'confirm')?.sure;
      return { content: [{ type: 'text', text: `${action}: ${answer.kind === 'elicit' ? answer.action : '?'} sure=${String(sure)}` }] };
    },
  );
  server.registerTool(
    'where',
    { title: 'Where', description: "Asks the caller for its roots (roots/list), then names them", inputSchema: z.object({}) },
    async (_args, handler): Promise<CallToolResult> => {
      const answer = inputResponse(handler.mcpReq.inputResponses, 'roots');
      if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } }) as never;
      return { content: [{ type: 'text', text: `roots: ${answer.roots.map((r) => r.uri).join(', ')}` }] };
    },
  );
  server.registerTool(
    'haiku',
    { title: 'Haiku', description: 'Asks the caller for a completion (sampling), then returns it', inputSchema: z.object({ topic: z.string() }) },
    async ({ topic }, handler): Promise<CallToolResult> => {
      const answer = inputResponse(handler.mcpReq.inputResponses, 'write');
      if (answer.kind !== 'sampling') {
        return inputRequired({ inputRequests: { write: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `A haiku on ${topic}` } }], maxTokens: 50 }) } }) as never;
      }
      const content = answer.result.content as { type: string; text?: string };
      return { content: [{ type: 'text', text: `sampled: ${content.text ?? ''}` }] };
    },
  );
  return server;
}

async function toRequest(req: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? '/', base), { method: req.method ?? 'GET', headers, ...(body && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}) });
}

/**
 * `asking`: with the tools that ask their caller (confirm: elicitation, haiku: sampling, where:
 * roots) and the prompt that asks (briefing) beside echo and chatty. `bothEras`: 2025-11-25 served
 * too (stateless, so it cannot ask a 2025 client anything).
 */
export async function startModernUpstream(options: { asking?: boolean; bothEras?: boolean } = {}): Promise<ModernUpstream> {
  const added = new Set<string>();
  const handler = createMcpHandler((ctx) => build(ctx, options.asking === true, added), options.bothEras ? {} : { legacy: 'reject' });
  const seen: ModernUpstream['seen'] = [];
  let base = '';
  const http = createServer((req, res) => {
    void (async () => {
      const request = await toRequest(req, base);
      const text = request.method === 'POST' ? await request.clone().text() : '';
      try {
        const message = JSON.parse(text) as { method?: string };
        if (typeof message.method === 'string') seen.push({ method: message.method, version: req.headers['mcp-protocol-version'] as string | undefined });
      } catch {
        // not a JSON body: nothing to note
      }
      const answer = await handler.fetch(request);
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.flushHeaders();
      const reader = answer.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) res.write(chunk.value);
      res.end();
    })().catch((err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    seen,
    addTool: (name) => {
      added.add(name);
      handler.notify.toolsChanged();
    },
    close: () => new Promise<void>((resolve) => { http.closeAllConnections(); http.close(() => resolve()); }),
  };
}
