// The WEB_FETCH plugin: a local capability (type fn) with SSRF protection; no upstream server.
import { definePlugin } from '@switchyard/plugin-kit';
import { capabilities, RUNNER, SYSTEM } from './manifest.js';
import { defaultOptions, optionsSchema, type WebFetchOptions } from './options.js';
import { WebFetchRunner } from './runner.js';

export const webFetchPlugin = definePlugin<WebFetchOptions>({
  name: 'web-fetch',
  system: SYSTEM,
  runner: RUNNER,
  capabilities,
  optionsSchema,
  createRunner: ({ options }) => new WebFetchRunner({ ...defaultOptions, ...options }),
});

export default webFetchPlugin;
export * from './manifest.js';
export { defaultOptions, type WebFetchOptions } from './options.js';
export { AddressPolicy, refusedRange, type RefusedRange } from '@switchyard/plugin-kit';
export { systemResolver, type Resolver } from './fetcher.js';
export { WebFetchRunner, type FetchResult } from './runner.js';
