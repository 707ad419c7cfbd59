// Test capabilities shaped like the spec's, with a scripted runner, for pure-core tests.
import type { CapabilityDefinition, CapabilityRunner } from '../src/index.js';

export const echoCapability: CapabilityDefinition = {
  key: 'TEST_ECHO',
  system: 'TEST',
  description: 'Echoes its arguments back.',
  type: 'fn',
  runner: 'test',
  inputs: { type: 'object', properties: { text: { type: 'string', minLength: 1 }, n: { type: 'integer', minimum: 1, maximum: 20, default: 5 } }, required: ['text'], additionalProperties: false },
  auth: 'none',
  risk: 'low',
  approval: false,
  cost: { perRunMicros: 100, perItemMicros: 10, itemsFrom: 'items' },
  example: { text: 'hello' },
};

export const guardedCapability: CapabilityDefinition = {
  ...echoCapability,
  key: 'TEST_GUARDED',
  auth: 'required',
  risk: 'high',
  approval: true,
};

export const ownerOnlyCapability: CapabilityDefinition = {
  ...echoCapability,
  key: 'TEST_OWNER_ONLY',
  auth: 'required',
  risk: 'high',
  approval: false,
};

/** Echoes args; text "boom" throws a plain Error, text "slow" never resolves within the test. */
export const echoRunner: CapabilityRunner = {
  async run(_capability, args) {
    const a = args as { text: string };
    if (a.text === 'boom') throw new Error('kaboom');
    return { echoed: args };
  },
};
