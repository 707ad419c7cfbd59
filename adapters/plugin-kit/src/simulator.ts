// What a plugin's upstream simulator is written with: an MCP server, zod input shapes, a loopback host.
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { z } from 'zod';
export { hostMcpServer, type HostedMcpServer, type HostOptions } from '@switchyard/mcp';
export type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
