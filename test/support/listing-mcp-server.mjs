#!/usr/bin/env node
// A tiny stdio MCP server for import tests whose tool list is whatever TOOLS_FILE holds now
// (a JSON array of tool names), so a test can change the list between refreshes. It lists two
// tools per page (clients must follow nextCursor). Every tool answers its arguments as JSON;
// `fail` always answers a tool error. A call to `notify` sends notifications/tools/list_changed.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const PAGE = 2;
const names = () => JSON.parse(readFileSync(process.env.TOOLS_FILE, 'utf8'));
const describe = (name) => ({
  name,
  description: `The ${name} tool of the listing fixture`,
  inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
});

const server = new Server({ name: 'listing-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  const all = names();
  const start = Number(request.params?.cursor ?? 0);
  const next = start + PAGE < all.length ? String(start + PAGE) : undefined;
  return { tools: all.slice(start, start + PAGE).map(describe), ...(next ? { nextCursor: next } : {}) };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!names().includes(name)) return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  if (name === 'fail') return { isError: true, content: [{ type: 'text', text: 'this tool always fails' }] };
  if (name === 'notify') await server.sendToolListChanged();
  return { content: [{ type: 'text', text: JSON.stringify({ tool: name, args, pid: process.pid }) }] };
});
await server.connect(new StdioServerTransport());
