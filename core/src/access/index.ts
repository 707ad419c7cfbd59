// Access and tokens: credentials, share tokens and the moves they allow, and the one access policy.
// Other folders import this concept from here, never from a file inside it.
export * from './caller.js';
export * from './rate-window.js';
export * from './moves.js';
export * from './actor-names.js';
export * from './share-token.js';
export * from './fair-share.js';
export * from './access-policy.js';
export * from './token-issuer.js';
export * from './token-use.js';
export * from './ports.js';
