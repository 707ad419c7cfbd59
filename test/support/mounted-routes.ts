// The routes an Express app really mounts, as "METHOD /path/{param}", read from its router stack,
// so a test can hold a document (the OpenAPI spec) to what the service actually serves.
import type { Express } from 'express';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

export function mountedRoutes(app: Express): string[] {
  const out = new Set<string>();
  const walk = (stack: Layer[]): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') out.add(`${method.toUpperCase()} ${path.replace(/[:*](\w+)/g, '{$1}')}`);
          }
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return [...out].sort();
}
