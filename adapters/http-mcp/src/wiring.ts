// The MCP faces' wiring: what /mcp, /mcp/servers/<name> and /mcp/v/<name> need, and the face they add.
import { randomBytes } from 'node:crypto';
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { PausedCalls, RequestStateSeal, SESSION_ID_KEY_LABEL, SessionIds } from '@switchyard/mcp';
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
      settings: coreServices.settings,
    },
    factory: async ({ options, settings, ...services }) => {
      // The requestState key is shared through the database, as the dashboard's session key is:
      // every process opens the states any of them minted (and tells a retry that reached the wrong one).
      const key = Buffer.from(await settings.once('mcp_request_state_key', () => randomBytes(32).toString('base64')), 'base64');
      const paused = new PausedCalls(new RequestStateSeal(key), { ...options.mcp.pausedCalls, keyedReserve: options.mcp.sessions.keyedReserve });
      // Session ids authenticate themselves under keys derived from the token root keys, so every
      // process tells an id the service issued (and to whom) without asking another.
      const ids = new SessionIds(services.tokens.derivedKeys(SESSION_ID_KEY_LABEL));
      // Every MCP route is under /mcp: other requests skip this face's router.
      const { router, close } = mcpRoutes({ ...services, ...options }, paused, ids);
      return { id: 'http-mcp', paths: ['/mcp'], router, close: async () => {
        await Promise.all([close(), paused.close()]);
      } };
    },
  }),
]);
