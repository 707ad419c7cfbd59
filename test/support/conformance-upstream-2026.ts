// The conformance suite's reference server again, on the v2 server SDK so that it speaks both eras
// (2026-07-28 per request, and the 2025 versions stateless): the same tools, resources, prompts and
// completions as conformance-upstream.ts, served by createMcpHandler on a loopback port. The suite
// of 0.2.0-alpha.12 runs its 2025-11-25 and 2026-07-28 requirements against it directly and
// through Switchyard's /mcp/servers/<name>.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, ProtocolError, Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import { PNG, TOOLS, WAV } from './conformance-upstream.js';
import { INPUT_REQUIRED_PROMPT, INPUT_REQUIRED_TOOLS, callInputRequiredTool, getInputRequiredPrompt, stateCodec } from './conformance-input-required.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LOCAL_HOSTS = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

async function callTool(name: string, args: Record<string, unknown> | undefined, ctx: ServerContext): Promise<CallToolResult> {
  switch (name) {
    case 'test_simple_text':
      return { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] };
    case 'test_image_content':
      return { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] };
    case 'test_audio_content':
      return { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] };
    case 'test_embedded_resource':
      return { content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }] };
    case 'test_multiple_content_types':
      return {
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      };
    case 'test_tool_with_logging':
      for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
        if (i) await sleep(50);
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
      }
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    case 'test_tool_with_progress': {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i) await sleep(50);
        if (progressToken !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      }
      return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] };
    }
    case 'test_error_handling':
      return { isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] };
    case 'json_schema_2020_12_tool':
      return { content: [{ type: 'text', text: `Hello ${JSON.stringify(args ?? {})}` }] };
    default: {
      const asked = await callInputRequiredTool(name, ctx);
      if (asked) return asked;
      throw new ProtocolError(-32602, `Unknown tool: ${name}`);
    }
  }
}

const PROMPTS = [
  { name: 'test_simple_prompt', description: 'A simple prompt' },
  { name: 'test_prompt_with_arguments', description: 'A prompt with arguments', arguments: [{ name: 'arg1', description: 'First', required: true }, { name: 'arg2', description: 'Second', required: true }] },
  { name: 'test_prompt_with_embedded_resource', description: 'A prompt with a resource', arguments: [{ name: 'resourceUri', description: 'The resource', required: true }] },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
];

function getPrompt(name: string, args: Record<string, string>) {
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'This is a simple prompt for testing.' } }] };
    case 'test_prompt_with_arguments':
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `Prompt with arguments: arg1='${args['arg1']}', arg2='${args['arg2']}'` } }] };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          { role: 'user' as const, content: { type: 'resource' as const, resource: { uri: args['resourceUri'] ?? 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
          { role: 'user' as const, content: { type: 'text' as const, text: 'Please process the embedded resource above.' } },
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          { role: 'user' as const, content: { type: 'image' as const, data: PNG, mimeType: 'image/png' } },
          { role: 'user' as const, content: { type: 'text' as const, text: 'Please analyze the image above.' } },
        ],
      };
    default:
      throw new ProtocolError(-32602, `Unknown prompt: ${name}`);
  }
}

function build(): Server {
  const server = new Server(
    { name: 'conformance-reference-2026', version: '1.0.0' },
    { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} }, requestState: { verify: stateCodec.verify } },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: [...TOOLS, ...INPUT_REQUIRED_TOOLS] }) as never);
  server.setRequestHandler('tools/call', async (request, ctx) => callTool(request.params.name, request.params.arguments, ctx));
  server.setRequestHandler('resources/list', async () => ({
    resources: [
      { uri: 'test://static-text', name: 'Static text', description: 'A static text resource', mimeType: 'text/plain' },
      { uri: 'test://static-binary', name: 'Static binary', description: 'A static PNG', mimeType: 'image/png' },
      { uri: 'test://watched-resource', name: 'Watched', description: 'A resource to subscribe to', mimeType: 'text/plain' },
    ],
  }));
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'Template data', description: 'Data for an id', mimeType: 'application/json' }],
  }));
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    if (uri === 'test://static-text') return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    if (uri === 'test://watched-resource') return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched content.' }] };
    const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
    if (id) return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
    throw new ProtocolError(-32002, `Resource not found: ${uri}`, { uri });
  });
  server.setRequestHandler('resources/subscribe', async () => ({}));
  server.setRequestHandler('resources/unsubscribe', async () => ({}));
  server.setRequestHandler('prompts/list', async () => ({ prompts: [...PROMPTS, INPUT_REQUIRED_PROMPT] }));
  server.setRequestHandler('prompts/get', async (request, ctx) => request.params.name === INPUT_REQUIRED_PROMPT.name ? getInputRequiredPrompt(ctx) as never : getPrompt(request.params.name, (request.params.arguments ?? {}) as Record<string, string>));
  server.setRequestHandler('completion/complete', async (request) => {
    const value = request.params.argument.value;
    const values = ['paris', 'park', 'party'].filter((v) => v.startsWith(value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

export interface ConformanceUpstream2026 {
  url: string;
  /** Reports a change of `uri` to the subscriptions/listen streams that asked for it (the 2026 era's only way to hear of one). */
  resourceUpdated(uri: string): void;
  /** The subscriptions/listen streams open now, so a test sees one opened and closed. */
  listening(): number;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, base: string, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(req.url ?? '/', base), { method: req.method ?? 'GET', headers, signal, ...(body ? { body } : {}) });
}

/**
 * Listens on a loopback port, both eras from one handler, refusing a non-local Host or Origin.
 * `modernOnly`: the 2025 era refused, so a client speaks 2026-07-28 to it (its 2025 face is
 * stateless, so it cannot ask a 2025 client anything: its InputRequiredResult tools need 2026).
 * `port`: listen there again (a restarted upstream at the same address).
 */
export async function startConformanceUpstream2026(options: { modernOnly?: boolean; port?: number } = {}): Promise<ConformanceUpstream2026> {
  const handler = createMcpHandler(() => build(), options.modernOnly ? { legacy: 'reject' } : {});
  let base = '';
  const http = createServer((req, res) => {
    const origin = req.headers.origin;
    let originHost = '';
    try {
      originHost = origin ? new URL(origin).host : '';
    } catch {
      originHost = '?';
    }
    if (!LOCAL_HOSTS.test(req.headers.host ?? '') || (origin !== undefined && !LOCAL_HOSTS.test(originHost))) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Host or Origin not allowed' }, id: null }));
      return;
    }
    // A client that closes its stream (a subscriptions/listen it ends) aborts the request, as the SDK's listen router expects.
    const gone = new AbortController();
    // The Request is held until the response closes: an undici Request's signal follows `gone` only
    // while the Request lives, so once it is collected, the handler never hears the client leave.
    let request: Request | undefined;
    res.on('close', () => {
      gone.abort();
      request = undefined;
    });
    void (async () => {
      request = await toRequest(req, base, gone.signal);
      const answer = await handler.fetch(request);
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.flushHeaders();
      const reader = answer.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) res.write(chunk.value);
      res.end();
    })().catch((err: Error) => {
      if (!res.headersSent) res.statusCode = 500;
      res.end(err.message);
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    resourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
    listening: () => (handler.bus as unknown as { listenerCount: number }).listenerCount,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
