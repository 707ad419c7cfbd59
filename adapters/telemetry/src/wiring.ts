// The telemetry package's wiring: one ServiceMetrics per service, under its typed ref.
import { createServiceRef } from '@switchyard/core';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { ServiceMetrics } from './service-metrics.js';

export const telemetryServices = {
  /** This service's metrics (its own registry), served at /metrics. */
  metrics: createServiceRef<ServiceMetrics>({ id: 'Metrics' }),
} as const;

export const telemetryWiring = definePackage('telemetry', [
  // One registry per service: tests run many services in one process.
  createServiceFactory({ service: telemetryServices.metrics, deps: {}, factory: () => new ServiceMetrics() }),
]);
