// EDGE: the edge platform's builds system, exactly as the spec's tables declare it.
import type { CapabilityDefinition } from '@switchyard/plugin-kit';

export const SYSTEM = 'EDGE';
export const RUNNER = 'edge builds';
export const SET_ACTIVE_WORKER_TOOL = 'workers_builds_set_active_worker';

export const setActiveWorker: CapabilityDefinition = {
  key: 'EDGE_BUILDS_WORKERS_BUILDS_SET_ACTIVE_WORKER',
  system: SYSTEM,
  description: 'Sets the active worker id used by later calls',
  type: 'tool',
  runner: RUNNER,
  tool: SET_ACTIVE_WORKER_TOOL,
  inputs: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      workerId: {
        type: 'string',
        description: 'id of the worker to make active: 32 hexadecimal characters, in either letter case',
        pattern: '^[0-9a-fA-F]{32}$',
      },
    },
    required: ['workerId'],
  },
  auth: 'none',
  risk: 'low',
  approval: false,
  // Changes which worker is active: reversible by setting the old one again; twice is once.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  cost: { perRunMicros: 200 },
  example: { workerId: '3f9a1c07d2b84e6fa5c0e1d2b3a49f81' },
};

export const capabilities: CapabilityDefinition[] = [setActiveWorker];
