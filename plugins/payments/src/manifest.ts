// PAYMENTS: search over a payment processor's API operations, exactly as the spec's tables declare it.
import type { CapabilityDefinition } from '@switchyard/plugin-kit';

export const SYSTEM = 'PAYMENTS';
export const RUNNER = 'payments';
export const SEARCH_TOOL = 'processor_api_search';

export const processorApiSearch: CapabilityDefinition = {
  key: 'PAYMENTS_PROCESSOR_API_SEARCH',
  system: SYSTEM,
  description:
    "Searches a payment processor's API operations by keyword; returns method, path, summary and top-level parameter names with types; omits parameter descriptions",
  type: 'tool',
  runner: RUNNER,
  tool: SEARCH_TOOL,
  inputs: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'keyword description of the operation wanted', minLength: 1, maxLength: 500 },
      limit: { type: 'integer', description: 'how many operations to return', minimum: 1, maximum: 20, default: 5 },
    },
    required: ['query'],
  },
  auth: 'required',
  risk: 'high',
  approval: true,
  // A search: reads the processor's API catalogue and changes nothing.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  cost: { perRunMicros: 1000 },
  example: { query: 'refund a payment', limit: 5 },
};

export const capabilities: CapabilityDefinition[] = [processorApiSearch];
