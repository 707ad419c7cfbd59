// A face's router entered only for the paths under its prefixes. Express walks every layer of every
// router it enters, matching each route's pattern, so a request for one face otherwise pays for the
// routes of every face mounted before it (an MCP call walked the API's 72 layers).
import type { Router } from 'express';

/**
 * Whether `path` is `prefix` itself or below it ("/mcp" holds "/mcp" and "/mcp/servers/x", not
 * "/mcpx"), in any letter case, as Express matches routes (`prefix` given in lower case).
 */
const isUnder = (path: string, prefix: string): boolean =>
  path.length >= prefix.length && path.slice(0, prefix.length).toLowerCase() === prefix && (path.length === prefix.length || path[prefix.length] === '/');

/**
 * `router`, skipped (next()) for any path outside `prefixes`. Like a router, it has three parameters
 * (Express passes errors only to four) and shows the router's `stack`, so whatever reads the mounted
 * routes from the app (the OpenAPI and route-access tests) still finds them.
 */
export function scopedRouter(prefixes: readonly string[], router: Router): Router {
  const lower = prefixes.map((p) => p.toLowerCase());
  const scoped = ((req, res, next) => {
    const path = req.path;
    if (lower.some((prefix) => isUnder(path, prefix))) return router(req, res, next);
    next();
  }) as Router;
  Object.defineProperty(scoped, 'stack', { get: () => router.stack });
  return scoped;
}
