// Capabilities and the registry: what a capability is, the registry that holds them, and what running one takes.
// Other folders import this concept from here, never from a file inside it.
export * from './capability.js';
export * from './registry.js';
export * from './suggest.js';
export * from './capability-index.js';
export * from './build-map.js';
export * from './router-tags.js';
export * from './body-format.js';
export * from './tool-content.js';
export * from './blobs.js';
export * from './yield.js';
export * from './plan.js';
export * from './runner-directory.js';
export * from './self-description.js';
export * from './markdown.js';
export * from './imported-tool.js';
export * from './tool-definition.js';
export * from './upstream-schema.js';
export * from './ports.js';
