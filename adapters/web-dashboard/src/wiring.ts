// The dashboard's wiring: what its pages need, and the face they add (with the connect cookie its guard reads).
import { Router } from 'express';
import { coreServices } from '@switchyard/core';
import { faceDeps, httpServices } from '@switchyard/http-kit';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { dashboardRoutes } from './routes.js';
import { CONNECT_COOKIE, CONNECT_COOKIE_PATH, upstreamConnectRoutes } from './upstream-connect.js';
import { toolReviewRoutes } from './tool-review.js';

export const webDashboardWiring = definePackage('web-dashboard', [
  createServiceFactory({
    service: httpServices.face,
    deps: {
      ...faceDeps,
      registry: coreServices.registry,
      approvals: coreServices.approvals,
      deliveries: coreServices.deliveries,
      forwarding: coreServices.forwarding,
      destinations: coreServices.destinations,
      forwardAllowlist: coreServices.forwardAllowlist,
      invocations: coreServices.invocations,
      ledger: coreServices.ledger,
      webhooks: coreServices.webhooks,
      upstreams: coreServices.upstreams,
      upstreamOAuth: coreServices.upstreamOAuth,
    },
    factory: ({ options, ...services }) => {
      const ctx = { ...services, ...options };
      return {
        id: 'web-dashboard',
        router: Router().use(upstreamConnectRoutes(ctx), toolReviewRoutes(ctx), dashboardRoutes(ctx)),
        cookies: [{ name: CONNECT_COOKIE, path: CONNECT_COOKIE_PATH }],
      };
    },
  }),
]);
