// The plugin kit's in-memory InvocationStore against the store contract's invocation group, the same the knex stores pass.
import { MemoryInvocationStore } from '@switchyard/plugin-kit/testing';
import { storeContract } from '../contract/store.contract.js';

storeContract(
  'memory (plugin kit)',
  { open: async () => ({ invocations: new MemoryInvocationStore(), close: async () => {} }) },
  { database: false, apiKeys: false, webhooks: false, deliveries: false },
);
