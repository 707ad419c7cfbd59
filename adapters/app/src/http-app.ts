// The Express application: routes mounted in one place, one error middleware at the end.
import express, { type Express } from 'express';
import type { HttpContext } from '@switchyard/http-kit';
import { errorMiddleware, notFoundHandler } from '@switchyard/http-kit';
import { dispatchRoutes } from '@switchyard/http-api';
import { healthRoutes } from '@switchyard/http-api';
import { invocationRoutes } from '@switchyard/http-api';
import { hookRoutes } from '@switchyard/http-api';
import { ledgerRoutes } from '@switchyard/http-api';
import { provenWorkRoutes } from '@switchyard/http-api';
import { tokenRoutes } from '@switchyard/http-api';
import { approvalRoutes } from '@switchyard/http-api';
import { routerRoutes } from '@switchyard/http-api';
import { workspaceRoutes } from '@switchyard/http-api';
import { dashboardRoutes } from '@switchyard/web-dashboard';
import { upstreamConnectRoutes } from '@switchyard/web-dashboard';
import { webhookRoutes } from '@switchyard/http-api';
import { destinationRoutes } from '@switchyard/http-api';
import { upstreamRoutes } from '@switchyard/http-api';
import { contentRoutes } from '@switchyard/web-content';
import { mcpRoutes } from '@switchyard/http-mcp';
import { oauthRoutes } from '@switchyard/http-oauth';
import { requestGate } from '@switchyard/http-kit';
import { metricsRoutes } from '@switchyard/http-api';
import { requestObserver } from '@switchyard/http-kit';
import { accessLog } from '@switchyard/http-kit';
import { SESSION_COOKIE, SESSION_COOKIE_PATH } from '@switchyard/http-kit';
import { CONNECT_COOKIE, CONNECT_COOKIE_PATH } from '@switchyard/web-dashboard';

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
