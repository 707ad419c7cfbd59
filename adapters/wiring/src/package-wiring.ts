// A package's wiring (the services it provides), and the container built from the packages the
// composition root lists: a service provided twice, or needed and provided by none, fails at boot.
import { ContainerModule } from 'inversify';
import type { ServiceRef } from '@switchyard/core';
import type { DepRefs, ServiceFactory } from './service-factory.js';

export interface PackageWiring {
  /** The package, as errors name it. */
  id: string;
  services: Array<ServiceFactory<unknown, DepRefs>>;
}

export const definePackage = (id: string, services: Array<ServiceFactory<any, any>>): PackageWiring => ({ id, services });

/** The wiring is wrong: `message` names the service and the packages. */
export class WiringError extends Error {
  override name = 'WiringError';
}

/**
 * The container modules of `packages`, checked first: each single service provided once, and every
 * dependency provided by a listed package or named in `boundElsewhere` (what plugin modules bind).
 */
export function wire(packages: PackageWiring[], boundElsewhere: Array<ServiceRef<unknown, boolean>> = []): ContainerModule[] {
  const provider = new Map<symbol, string>();
  for (const pkg of packages) {
    for (const { service } of pkg.services) {
      const already = provider.get(service.token);
      if (already !== undefined && !service.multiple) throw new WiringError(`service ${service.id} is provided by both ${already} and ${pkg.id}`);
      provider.set(service.token, pkg.id);
    }
  }
  const elsewhere = new Set(boundElsewhere.map((r) => r.token));
  for (const pkg of packages) {
    for (const { service, deps } of pkg.services) {
      for (const dep of Object.values(deps)) {
        if (!dep.multiple && !provider.has(dep.token) && !elsewhere.has(dep.token)) throw new WiringError(`${pkg.id}'s ${service.id} needs ${dep.id}, which no listed package provides`);
      }
    }
  }
  return packages.map(
    (pkg) =>
      new ContainerModule(({ bind }) => {
        for (const { service, deps, factory } of pkg.services) {
          const names = Object.keys(deps);
          const refs = Object.values(deps);
          bind(service.token)
            .toResolvedValue(
              (...values: unknown[]) => factory(Object.fromEntries(names.map((name, i) => [name, values[i] ?? (refs[i]!.multiple ? [] : undefined)]))),
              refs.map((r) => (r.multiple ? { serviceIdentifier: r.token, isMultiple: true as const, optional: true as const } : r.token)),
            )
            .inSingletonScope();
        }
      }),
  );
}
