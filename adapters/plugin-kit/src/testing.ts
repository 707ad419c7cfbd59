// @switchyard/plugin-kit/testing: the contract suite, the harness, the in-memory ledger and fixture helpers.
export { pluginContract, SELF_DESCRIPTION_FIELDS, type PluginContractOptions } from './contract.js';
export { startPluginHarness, type PluginHarness, type HarnessOptions } from './harness.js';
export { MemoryInvocationStore } from './memory-store.js';
export { examplesOf, invalidFromSchema, invalidFromSchemas, type Fixtures } from './fixtures.js';
