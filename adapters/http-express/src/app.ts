// The Express application: routes mounted in one place, one error middleware at the end.
import express, { type Express } from 'express';
import type { HttpContext } from './context.js';
import { errorMiddleware, notFoundHandler } from './errors.js';
import { dispatchRoutes } from './routes/dispatch.js';
import { healthRoutes } from './routes/health.js';
import { invocationRoutes } from './routes/invocations.js';
import { hookRoutes } from './routes/hooks.js';
import { ledgerRoutes } from './routes/ledger.js';
import { provenWorkRoutes } from './routes/proven-work.js';
import { tokenRoutes } from './routes/tokens.js';
import { approvalRoutes } from './routes/approvals.js';
import { routerRoutes } from './routes/router.js';
import { workspaceRoutes } from './routes/workspace.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { upstreamConnectRoutes } from './dashboard/upstream-connect.js';
import { webhookRoutes } from './routes/webhooks.js';
import { destinationRoutes } from './routes/destinations.js';
import { upstreamRoutes } from './routes/upstreams.js';
import { contentRoutes } from './routes/content.js';
import { mcpRoutes } from './routes/mcp.js';
import { oauthRoutes } from './oauth/index.js';
import { requestGate } from './request-gate.js';
import { metricsRoutes } from './routes/metrics.js';
import { requestObserver } from './request-observer.js';
import { accessLog } from './access-log.js';
import { SESSION_COOKIE, SESSION_COOKIE_PATH } from './dashboard/session.js';
import { CONNECT_COOKIE, CONNECT_COOKIE_PATH } from './dashboard/upstream-connect.js';

export function createHttpApp(ctx: HttpContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  // Before everything else, in one layer: every request gets its id, its timing and its body bytes
  // counted, and malformed percent-encoding is refused before any route decodes a path, a query
  // or a cookie.
  app.use(
    requestObserver({
      bodies: ctx.metrics.bodyBytesInFlight,
      metrics: ctx.metrics,
      accessLog: accessLog(ctx.logger),
      readCookies: [
        { name: SESSION_COOKIE, path: SESSION_COOKIE_PATH },
        { name: CONNECT_COOKIE, path: CONNECT_COOKIE_PATH },
      ],
    }),
  );
  // Header count, body timeout and the budget of bodies in flight, before any route reads a body.
  const gate = requestGate(ctx.limits);
  // Deliveries are the hottest path: their routes are the app's own, next after the observer, so
  // they walk no other layer or router (they pass the gate inside, holding a body only once the
  // webhook is known).
  hookRoutes(ctx, gate, app);
  app.use(gate.middleware);
  app.use(healthRoutes(ctx));
  app.use(metricsRoutes(ctx));
  app.use(dispatchRoutes(ctx));
  app.use(invocationRoutes(ctx));
  app.use(webhookRoutes(ctx));
  app.use(destinationRoutes(ctx));
  app.use(ledgerRoutes(ctx));
  app.use(provenWorkRoutes(ctx));
  app.use(tokenRoutes(ctx));
  app.use(approvalRoutes(ctx));
  app.use(upstreamRoutes(ctx));
  app.use(mcpRoutes(ctx));
  app.use(routerRoutes(ctx));
  app.use(workspaceRoutes(ctx));
  app.use(oauthRoutes(ctx));
  app.use(upstreamConnectRoutes(ctx));
  app.use(dashboardRoutes(ctx));
  app.use(contentRoutes(ctx));
  app.use(notFoundHandler);
  app.use(errorMiddleware(ctx.logger));
  return app;
}
