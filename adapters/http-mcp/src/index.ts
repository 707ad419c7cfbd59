// The MCP faces: /mcp, /mcp/servers/<name> and /mcp/v/<name>.
export { mcpRoutes } from './routes/mcp.js';
export { httpMcpWiring } from './wiring.js';
