// @switchyard/plugin-kit/testing: the contract suite, the harness, the in-memory ledger and fixture helpers.
export { pluginContract, SELF_DESCRIPTION_FIELDS, type PluginContractOptions } from './contract.js';
export { startPluginHarness, type PluginHarness, type HarnessOptions } from './harness.js';
export { MemoryInvocationStore } from './memory-store.js';
export { examplesOf, invalidFromSchema, invalidFromSchemas, type Fixtures } from './fixtures.js';
// The owner's credential, as dispatch takes it: a test runs as the owner unless it says otherwise.
export { OWNER } from '@switchyard/core';
// chai's expect, so a plugin's tests need no assertion library of their own.
export { expect } from 'chai';
