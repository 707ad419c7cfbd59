// The REST face's wiring: what its routes need, named by their refs, and the face it adds to the app.
import { Router } from 'express';
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { telemetryServices } from '@switchyard/telemetry';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { approvalRoutes } from './routes/approvals.js';
import { destinationRoutes } from './routes/destinations.js';
import { listenRoutes } from './routes/listen.js';
import { forwardingAllowRoutes } from './routes/forwarding-allow.js';
import { dispatchRoutes } from './routes/dispatch.js';
import { healthRoutes } from './routes/health.js';
import { hookRoutes } from './routes/hooks.js';
import { invocationRoutes } from './routes/invocations.js';
import { ledgerRoutes } from './routes/ledger.js';
import { logTileRoutes } from './routes/log-tiles.js';
import { metricsRoutes } from './routes/metrics.js';
import { provenWorkRoutes } from './routes/proven-work.js';
import { routerRoutes } from './routes/router.js';
import { tokenRoutes } from './routes/tokens.js';
import { toolRoutes } from './routes/tools.js';
import { upstreamRoutes } from './routes/upstreams.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workspaceRoutes } from './routes/workspace.js';

export const httpApiWiring = definePackage('http-api', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      ...faceDeps,
      databaseHealth: httpServices.databaseHealth,
      metrics: telemetryServices.metrics,
      registry: coreServices.registry,
      dispatch: coreServices.dispatch,
      idempotentRuns: coreServices.idempotentRuns,
      intake: coreServices.intake,
      approvals: coreServices.approvals,
      forwarding: coreServices.forwarding,
      destinations: coreServices.destinations,
      forwardAllowlist: coreServices.forwardAllowlist,
      invocations: coreServices.invocations,
      blobs: coreServices.blobs,
      webhooks: coreServices.webhooks,
      deliveries: coreServices.deliveries,
      ledger: coreServices.ledger,
      upstreams: coreServices.upstreams,
      upstreamOAuth: coreServices.upstreamOAuth,
    },
    factory: ({ options, ...services }) => {
      const ctx = { ...services, ...options };
      return {
        id: 'http-api',
        // Deliveries are the app's own routes, ahead of the gate: they hold a body only once the webhook is known.
        early: (app, gate) => void hookRoutes(ctx, gate, app),
        router: Router().use(
          healthRoutes(ctx),
          metricsRoutes(ctx),
          dispatchRoutes(ctx),
          invocationRoutes(ctx),
          webhookRoutes(ctx),
          destinationRoutes(ctx),
          listenRoutes(ctx),
          forwardingAllowRoutes(ctx),
          ledgerRoutes(ctx),
          provenWorkRoutes(ctx),
          logTileRoutes(ctx),
          tokenRoutes(ctx),
          approvalRoutes(ctx),
          upstreamRoutes(ctx),
          toolRoutes(ctx),
          routerRoutes(ctx),
          workspaceRoutes(ctx),
        ),
      };
    },
  }),
]);
