// Plugins: the contract a package implements and the refs of the services it can name.
// Other folders import this concept from here, never from a file inside it.
export * from './plugin.js';
export * from './services.js';
