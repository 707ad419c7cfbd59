// Imports and tool governance: tools imported from upstream MCP servers, pinned, reviewed and overridden.
// Other folders import this concept from here, never from a file inside it.
export * from './mcp-meta-limit.js';
export * from './tool-runner.js';
export * from './tool-pin.js';
export * from './tool-review.js';
export * from './tool-diff.js';
export * from './tool-override.js';
export * from './tool-title.js';
export * from './upstream-token.js';
export * from './upstream-imports.js';
export * from './ports.js';
