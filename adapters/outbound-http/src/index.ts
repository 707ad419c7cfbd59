// The service's outbound HTTP: every request the service itself makes to an address it was given,
// each an adapter of a core port, all under the shared address policy (@switchyard/network-policy).
export * from './forward-sender.js';
export * from './client-metadata-fetcher.js';
export * from './witness-transport.js';
