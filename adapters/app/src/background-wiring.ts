// The background tasks of a process, in the order they start (and stop in reverse: the forwarder's
// attempts in flight end before the integrator, which integrates what they appended). Which of them
// a process runs is its role's choice (background-work.ts's tasksFor): every process sweeps its runs
// and hears the other processes' refreshes; a worker or an `all` process also does the rest, while
// an api process only writes what they work (queued entries, forwarding jobs).
import { WitnessService, coreServices } from '@switchyard/core';
import { fetchWitnessTransport } from '@switchyard/outbound-http';
import { createServiceFactory, definePackage } from '@switchyard/wiring';
import { forwarderTask, integratorTask, retentionTask, runSweeperTask, witnessTask } from './background-work.js';
import { appServices } from './tokens.js';
import { upstreamListenerTask, upstreamRefresherTask } from './upstream-background.js';

/** How often a forwarder looks for due attempts unless webhooks.forwarding.pollMs says otherwise. */
const DEFAULT_FORWARD_POLL_MS = 250;

export const backgroundWiring = definePackage('app/background', [
  createServiceFactory({
    service: appServices.backgroundTasks,
    deps: { config: appServices.config, logger: appServices.logger, reservations: coreServices.reservations, interrupted: coreServices.interruptedRuns, idempotent: coreServices.idempotentRuns },
    factory: ({ config, logger, reservations, interrupted, idempotent }) => runSweeperTask({ reservations, interrupted, idempotent }, config.dispatch.runLeaseMs ?? 15_000, logger),
  }),
  // Imported servers: with several processes, every one hears the others' refreshes; worker and
  // `all` processes refresh a server that says its tools changed.
  createServiceFactory({ service: appServices.backgroundTasks, deps: { imports: appServices.upstreamImports }, factory: ({ imports }) => upstreamListenerTask(imports) }),
  createServiceFactory({ service: appServices.backgroundTasks, deps: { imports: appServices.upstreamImports }, factory: ({ imports }) => upstreamRefresherTask(imports) }),
  createServiceFactory({
    service: appServices.backgroundTasks,
    deps: { config: appServices.config, logger: appServices.logger, ledger: coreServices.ledger },
    factory: ({ config, logger, ledger }) => integratorTask(ledger, config.ledger.integrateIntervalMs, logger),
  }),
  // Witnesses configured: a malformed key stops the start here, before any work begins.
  createServiceFactory({
    service: appServices.backgroundTasks,
    deps: { config: appServices.config, logger: appServices.logger, ledger: coreServices.ledger },
    factory: ({ config, logger, ledger }) => witnessTask(new WitnessService(ledger, config.ledger.witnesses ?? [], fetchWitnessTransport, config.ledger.witnessTimeoutMs ?? 5000), config.ledger.integrateIntervalMs, logger),
  }),
  createServiceFactory({
    service: appServices.backgroundTasks,
    deps: { config: appServices.config, forwarding: coreServices.forwarding },
    factory: ({ config, forwarding }) => forwarderTask(forwarding, config.webhooks.forwarding?.pollMs ?? DEFAULT_FORWARD_POLL_MS),
  }),
  createServiceFactory({
    service: appServices.backgroundTasks,
    deps: { config: appServices.config, logger: appServices.logger, ledger: coreServices.ledger, webhooks: coreServices.webhooks },
    factory: ({ config, logger, ledger, webhooks }) => retentionTask(ledger, webhooks, config.retention?.privateDays ?? null, config.retention?.intervalMs ?? 60_000, logger),
  }),
]);
