// The MCP faces' wiring: what /mcp, /mcp/servers/<name> and /mcp/v/<name> need, and the face they add.
import { coreServices } from '@switchyard/core';
import { httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { mcpRoutes } from './routes/mcp.js';

export const httpMcpWiring = definePackage('http-mcp', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      options: httpServices.options,
      access: httpServices.access,
      logger: httpServices.logger,
      registry: coreServices.registry,
      dispatch: coreServices.dispatch,
      tokens: coreServices.tokens,
      apiKeys: coreServices.apiKeys,
      tokenUses: coreServices.tokenUses,
      blobs: coreServices.blobs,
      upstreams: coreServices.upstreams,
    },
    factory: ({ options, ...services }) => ({ id: 'http-mcp', router: mcpRoutes({ ...services, ...options }) }),
  }),
]);
