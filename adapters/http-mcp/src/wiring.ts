// The MCP faces' wiring: what /mcp, /mcp/servers/<name> and /mcp/v/<name> need, and the face they add.
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { mcpRoutes } from './routes/mcp.js';

export const httpMcpWiring = definePackage('http-mcp', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      ...faceDeps,
      registry: coreServices.registry,
      dispatch: coreServices.dispatch,
      idempotentRuns: coreServices.idempotentRuns,
      blobs: coreServices.blobs,
      upstreams: coreServices.upstreams,
    },
    // Every MCP route is under /mcp: other requests skip this face's router.
    factory: ({ options, ...services }) => ({ id: 'http-mcp', paths: ['/mcp'], router: mcpRoutes({ ...services, ...options }) }),
  }),
]);
