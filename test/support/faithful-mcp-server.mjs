#!/usr/bin/env node
// A stdio MCP server for gateway tests: what server-everything does not show. Every content type in
// one answer with structuredContent and an output schema, a large image, text returned exactly as
// sent, log messages during a call, progress, and a call that waits to be cancelled (and tells
// afterwards whether the cancellation reached it); a resource to subscribe to, which `touch` updates
// (telling subscribers only) and `subscriptions` lists, so tests see what reached the upstream; and
// `exit`, after which the next call starts it again with nothing remembered.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = (properties = {}, required = []) => ({ type: 'object', properties, required });
/** 8 bytes of a PNG header, then `size - 8` bytes of a repeating pattern: a stand-in image of any size. */
const imageOf = (size) => Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), Buffer.alloc(Math.max(0, size - 8), 'switchyard')]).toString('base64');
const WAV = Buffer.from('RIFF$\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0@\x1f\0\0@\x1f\0\0\x01\0\x08\0data\0\0\0\0', 'latin1').toString('base64');

const TOOLS = [
  {
    name: 'all-content',
    title: 'Every content type',
    description: 'Answers text, an image, audio, a resource link, embedded text and blob resources, and structured content',
    inputSchema: object(),
    outputSchema: object({ count: { type: 'integer' }, kinds: { type: 'array', items: { type: 'string' } } }, ['count', 'kinds']),
    annotations: { readOnlyHint: true, idempotentHint: true },
    _meta: { 'example.com/owner': 'gateway tests' },
  },
  { name: 'big-image', description: 'An image of `size` bytes', inputSchema: object({ size: { type: 'integer' } }, ['size']), annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: 'say', description: 'Answers `text` exactly as given', inputSchema: object({ text: { type: 'string' } }, ['text']) },
  { name: 'chatty', description: 'Logs three messages, then answers done', inputSchema: object() },
  { name: 'steps', description: 'Reports `steps` progress steps, then answers', inputSchema: object({ steps: { type: 'integer' } }, ['steps']) },
  { name: 'wait-for-cancel', description: 'Waits until cancelled (at most 20 s)', inputSchema: object() },
  { name: 'last-wait', description: 'How the last wait-for-cancel ended', inputSchema: object() },
  { name: 'touch', description: 'Changes resource `uri`; subscribers are told', inputSchema: object({ uri: { type: 'string' } }, ['uri']) },
  { name: 'subscriptions', description: 'The resource URIs this server is subscribed to', inputSchema: object() },
  { name: 'exit', description: 'Answers, then exits (as a crash or an upgrade would)', inputSchema: object() },
];

const subscribed = new Set();
const touches = new Map();

let lastWait = 'none';

const server = new Server({ name: 'faithful-fixture', version: '1.0.0' }, { capabilities: { tools: {}, logging: {}, resources: { subscribe: true } } });
server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: 'memo://counter', name: 'counter', mimeType: 'text/plain' }] }));
server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: String(touches.get(request.params.uri) ?? 0) }] }));
server.setRequestHandler(SubscribeRequestSchema, async (request) => (subscribed.add(request.params.uri), {}));
server.setRequestHandler(UnsubscribeRequestSchema, async (request) => (subscribed.delete(request.params.uri), {}));
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  switch (name) {
    case 'all-content':
      return {
        content: [
          { type: 'text', text: 'Every kind follows.' },
          { type: 'image', data: imageOf(64), mimeType: 'image/png', annotations: { audience: ['user'] } },
          { type: 'audio', data: WAV, mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///reports/q3.csv', name: 'q3.csv', mimeType: 'text/csv', description: 'The quarter' },
          { type: 'resource', resource: { uri: 'memo://greeting', mimeType: 'text/plain', text: 'hello' } },
          { type: 'resource', resource: { uri: 'memo://bytes', mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 254, 255]).toString('base64') } },
        ],
        structuredContent: { count: 6, kinds: ['text', 'image', 'audio', 'resource_link', 'resource', 'resource'] },
      };
    case 'big-image':
      return { content: [{ type: 'image', data: imageOf(Number(args.size)), mimeType: 'image/png' }] };
    case 'say':
      return { content: [{ type: 'text', text: String(args.text) }] };
    case 'chatty':
      for (const [level, data] of [['info', 'starting'], ['warning', { step: 2, note: 'halfway' }], ['debug', 'finishing']]) {
        await extra.sendNotification({ method: 'notifications/message', params: { level, logger: 'chatty', data } });
      }
      return { content: [{ type: 'text', text: 'done' }] };
    case 'steps': {
      const token = extra._meta?.progressToken ?? request.params._meta?.progressToken;
      for (let i = 1; i <= Number(args.steps); i++) {
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: Number(args.steps), message: `step ${i}` } });
        // A step of work: the notification leaves before the answer, as it would in a real tool.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { content: [{ type: 'text', text: `${args.steps} steps` }] };
    }
    case 'wait-for-cancel':
      lastWait = 'waiting';
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 20_000);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      lastWait = extra.signal.aborted ? 'cancelled' : 'ran to the end';
      return { content: [{ type: 'text', text: lastWait }] };
    case 'last-wait':
      return { content: [{ type: 'text', text: lastWait }] };
    case 'touch': {
      const uri = String(args.uri);
      touches.set(uri, (touches.get(uri) ?? 0) + 1);
      if (subscribed.has(uri)) await server.notification({ method: 'notifications/resources/updated', params: { uri } });
      return { content: [{ type: 'text', text: subscribed.has(uri) ? 'notified' : 'not subscribed' }] };
    }
    case 'exit':
      setTimeout(() => process.exit(0), 20);
      return { content: [{ type: 'text', text: 'exiting' }] };
    case 'subscriptions':
      return { content: [{ type: 'text', text: [...subscribed].sort().join(' ') }] };
    default:
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  }
});
await server.connect(new StdioServerTransport());
