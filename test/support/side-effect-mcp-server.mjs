#!/usr/bin/env node
// A stdio MCP server with a side effect the test can count: `mark` appends its `label` to the file
// named by the first argument (so the test knows the call reached the upstream), then answers at
// once, or, with `block: true`, never answers (until its process goes, with the service's), or, with
// `hold: true`, answers once a file named like the marks file plus `.release` exists.
import { appendFileSync, existsSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const marks = process.argv[2];
const server = new Server({ name: 'side-effect', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: 'mark',
      description: 'Appends label to the marks file; with block, never answers; with hold, answers once released',
      inputSchema: { type: 'object', properties: { label: { type: 'string' }, block: { type: 'boolean' }, hold: { type: 'boolean' } }, required: ['label'] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { label, block, hold } = request.params.arguments ?? {};
  appendFileSync(marks, `${label}\n`);
  if (block) await new Promise(() => {});
  while (hold && !existsSync(`${marks}.release`)) await new Promise((r) => setTimeout(r, 20));
  return { content: [{ type: 'text', text: `marked ${label}` }] };
});
await server.connect(new StdioServerTransport());
