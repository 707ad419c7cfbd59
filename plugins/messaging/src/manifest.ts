// MESSAGING: groups and phone-number lookups, exactly as the spec's tables declare them.
import type { CapabilityDefinition } from '@switchyard/plugin-kit';

export const SYSTEM = 'MESSAGING';
export const RUNNER = 'messaging';
export const UPDATE_GROUP_TOOL = 'update_group';
export const BATCH_LOOKUP_TOOL = 'batch_lookup_phone_numbers';
export const MAX_NUMBERS = 100;
/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
export const E164_PATTERN = '^\\+[1-9][0-9]{1,14}$';

export const updateGroup: CapabilityDefinition = {
  key: 'MESSAGING_UPDATE_GROUP',
  system: SYSTEM,
  description: 'Renames a group',
  type: 'tool',
  runner: RUNNER,
  tool: UPDATE_GROUP_TOOL,
  inputs: {
    type: 'object',
    properties: {
      group_id: { type: 'string', description: 'group id with prefix grp_', pattern: '^grp_[A-Za-z0-9]+$' },
      name: { type: 'string', description: 'new group name', minLength: 1, maxLength: 200 },
    },
    required: ['group_id', 'name'],
    additionalProperties: false,
  },
  auth: 'none',
  risk: 'low',
  approval: false,
  // A rename: reversible by renaming back; the same name twice is one rename.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  cost: { perRunMicros: 500 },
  example: { group_id: 'grp_4f7c2a9d1e', name: 'Night shift' },
};

export const batchLookupPhoneNumbers: CapabilityDefinition = {
  key: 'MESSAGING_BATCH_LOOKUP_PHONE_NUMBERS',
  system: SYSTEM,
  description: 'Looks up up to 100 phone numbers at once; needs an enterprise plan',
  type: 'tool',
  runner: RUNNER,
  tool: BATCH_LOOKUP_TOOL,
  inputs: {
    type: 'object',
    properties: {
      numbers: {
        type: 'array',
        description: 'E.164 phone numbers; at most 100',
        items: { type: 'string', pattern: E164_PATTERN },
        minItems: 1,
        maxItems: MAX_NUMBERS,
      },
    },
    required: ['numbers'],
    additionalProperties: false,
  },
  auth: 'none',
  risk: 'low',
  approval: false,
  // A lookup: reads and changes nothing.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  limits: { plan: 'enterprise', notes: [`at most ${MAX_NUMBERS} numbers per call`] },
  cost: { perRunMicros: 500, perItemMicros: 5000, itemsFrom: 'numbers' },
  example: { numbers: ['+14155552671', '+442071838750'] },
};

export const capabilities: CapabilityDefinition[] = [updateGroup, batchLookupPhoneNumbers];
