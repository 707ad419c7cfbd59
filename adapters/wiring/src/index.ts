// Wiring per package: typed service refs (core's createServiceRef), each package's services, the container from the packages listed.
export { constantService, createServiceFactory, type DepRefs, type DepsOf, type ServiceFactory, type ServiceOf } from './service-factory.js';
export { WiringError, definePackage, wire, type PackageWiring } from './package-wiring.js';
