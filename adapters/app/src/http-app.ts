// The Express application: the request observer first, the faces' early routes, the request gate,
// then every face's router in the order the composition root lists their packages, and one error
// middleware at the end. The faces come from their packages' wiring; this file names none of them.
import express, { type Express } from 'express';
import { SESSION_COOKIE, SESSION_COOKIE_PATH, scopedRouter, accessLog, requestTrace, errorMiddleware, notFoundHandler, requestGate, requestObserver, type HttpFace, type HttpLogger, type HttpOptions, type StorageFailures } from '@switchyard/http-kit';
import type { ServiceMetrics } from '@switchyard/telemetry';

export function createHttpApp({ faces, options, metrics, logger, failures }: { faces: HttpFace[]; options: HttpOptions; metrics: ServiceMetrics; logger: HttpLogger; failures?: StorageFailures }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  // Behind the configured proxies only, req.ip is the client their X-Forwarded-For names (rate limits
  // count it); from any other peer the header is ignored and req.ip is the socket's address.
  if (options.trustedProxies.length) app.set('trust proxy', options.trustedProxies);
  // With traces on, each request's span comes first, so everything after runs inside it.
  if (options.tracing) app.use(requestTrace());
  // Before everything else, in one layer: every request gets its id, its timing and its body bytes
  // counted, and malformed percent-encoding is refused before any route decodes a path, a query
  // or a cookie (the owner session's, and those the faces name).
  app.use(
    requestObserver({
      bodies: metrics.bodyBytesInFlight,
      metrics,
      accessLog: accessLog(logger),
      readCookies: [{ name: SESSION_COOKIE, path: SESSION_COOKIE_PATH }, ...faces.flatMap((f) => f.cookies ?? [])],
    }),
  );
  // Header count, body timeout and the budget of bodies in flight, before any route reads a body.
  const gate = requestGate(options.limits);
  // The hottest path (deliveries) is the app's own routes, next after the observer, so it walks
  // no other layer or router (it passes the gate inside, holding a body only once the webhook is known).
  for (const face of faces) face.early?.(app, gate);
  app.use(gate.middleware);
  // A face that names its paths is entered for those only (the MCP faces: calls skip the API's routes).
  for (const face of faces) app.use(face.paths ? scopedRouter(face.paths, face.router) : face.router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger, failures));
  return app;
}
