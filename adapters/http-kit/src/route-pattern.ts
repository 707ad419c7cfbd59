// The pattern of the route that answered a request (/hook/:id/:action), never its raw path: a
// label or log field with a bounded set of values that reveals no webhook address or token.
import type { Request } from 'express';

/** The route of a request answered before any route took it (404s, a guard in front of a group of routes refusing it). */
export const UNMATCHED_ROUTE = '(unmatched)';

export function routePattern(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (!route || route.path === undefined) return UNMATCHED_ROUTE;
  const path = typeof route.path === 'string' ? route.path : String(route.path);
  return `${req.baseUrl ?? ''}${path}`;
}
