// How a package makes one service: the ref it provides, the refs it depends on (typed by them), and
// the factory, called once at start with every dependency resolved.
import type { ServiceRef } from '@switchyard/core';

/** The value a dependency's ref stands for: every contribution for a multiple ref, else the one service. */
export type ServiceOf<R> = R extends ServiceRef<infer T, infer M> ? (M extends true ? T[] : T) : never;

export type DepRefs = Record<string, ServiceRef<unknown, boolean>>;

export type DepsOf<D extends DepRefs> = { [K in keyof D]: ServiceOf<D[K]> };

export interface ServiceFactory<T = unknown, D extends DepRefs = DepRefs> {
  service: ServiceRef<T, boolean>;
  deps: D;
  factory(deps: DepsOf<D>): T | Promise<T>;
}

/** One service of a package: `deps` are refs, and `factory` receives them resolved, by the same names. */
export const createServiceFactory = <T, D extends DepRefs>(factory: ServiceFactory<T, D>): ServiceFactory<T, D> => factory;

/** A value the composition root hands over as it is (config, the logger). */
export const constantService = <T>(service: ServiceRef<T, boolean>, value: T): ServiceFactory<T, Record<string, never>> => ({ service, deps: {}, factory: () => value });
