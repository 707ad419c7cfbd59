// Every route an Express app mounts, with the access it declares, read from its router stack: the
// guards at the mounts a route passes (router.use(prefix, guard)) and those in its own handlers.
import type { Express } from 'express';
import { accessOf, type DeclaredAccess } from '@switchyard/http-kit';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: Layer[] };
  handle?: ((...args: unknown[]) => unknown) & { stack?: Layer[] };
  match(path: string): boolean;
}

export interface RouteAccessRow {
  /** "METHOD /path/{param}", as mountedRoutes names it. */
  route: string;
  method: string;
  /** A path that reaches the route (each parameter filled with a sample value). */
  sample: string;
  access: DeclaredAccess[];
}

const SAMPLE = 'x1';

export function mountedRouteAccess(app: Express): RouteAccessRow[] {
  const rows: RouteAccessRow[] = [];
  // The guards of the mounts passed on the way down, each with the layer that decides where it applies.
  const walk = (stack: Layer[], mounts: Array<{ layer: Layer; access: DeclaredAccess }>): void => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]) {
          const sample = path.replace(/[:*](\w+)/g, SAMPLE);
          const atMounts = mounts.filter((m) => m.layer.match(sample)).map((m) => m.access);
          const own = layer.route.stack.flatMap((l) => accessOf(l.handle) ?? []);
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') rows.push({ route: `${method.toUpperCase()} ${path.replace(/[:*](\w+)/g, '{$1}')}`, method: method.toUpperCase(), sample, access: [...atMounts, ...own] });
          }
        }
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, mounts);
      } else {
        const access = accessOf(layer.handle);
        if (access) mounts = [...mounts, { layer, access }];
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, []);
  // In mountedRoutes' order (code units), so the two lists compare as they are.
  return rows.sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : 0));
}

/** One line per access, as a person reads it. */
export const describeAccess = (a: DeclaredAccess): string => {
  switch (a.kind) {
    case 'move':
      return `move ${a.move}${a.when ? ` (when ${a.when})` : ''}`;
    case 'owner-session':
      return 'owner session';
    case 'public':
      return `public: ${a.why}`;
    case 'run':
      return `run (${a.what})`;
    case 'verbs':
      return `per verb: ${Object.entries(a.moves).map(([v, m]) => `${v} ${m ?? 'judged by its handler'}${a.narrower?.[v] ? ` (${a.narrower[v]})` : ''}`).join(', ')}`;
  }
};
