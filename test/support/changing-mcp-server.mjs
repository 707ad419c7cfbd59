#!/usr/bin/env node
// A stdio MCP server whose tool definitions are whatever DEFINITIONS_FILE holds at each tools/list
// (a JSON array of MCP Tool objects), so a test changes a description, a schema or an annotation,
// adds or removes a tool, on request between refreshes: the "rug pull" of an upstream after
// approval. Every tool answers its name and arguments as JSON. With WATCH_DEFINITIONS=1 it sends
// notifications/tools/list_changed when the file changes; with LIST_LOG set, each tools/list
// appends the parent's pid (the service process that listed) to that file.
import { appendFileSync, readFileSync, watchFile } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const definitions = () => JSON.parse(readFileSync(process.env.DEFINITIONS_FILE, 'utf8'));

const server = new Server({ name: 'changing-fixture', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (process.env.LIST_LOG) appendFileSync(process.env.LIST_LOG, `${process.ppid}\n`);
  return { tools: definitions() };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  if (!definitions().some((t) => t.name === name)) return { isError: true, content: [{ type: 'text', text: `unknown tool ${name}` }] };
  return { content: [{ type: 'text', text: JSON.stringify({ tool: name, args }) }] };
});
await server.connect(new StdioServerTransport());
if (process.env.WATCH_DEFINITIONS === '1') {
  watchFile(process.env.DEFINITIONS_FILE, { interval: 50 }, () => void server.sendToolListChanged());
  // The watcher would keep this process alive after its service is gone.
  process.stdin.on('close', () => process.exit(0));
}
