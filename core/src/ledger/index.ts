// The ledger: every entry a leaf of the Merkle log; the tree, erasure, tiles and witnesses.
// Other folders import this concept from here, never from a file inside it.
export * from './ledger-integrate.js';
export * from './tlog-tiles.js';
export * from './witnessing.js';
export * from './ledger-leaf.js';
export * from './erasure.js';
export * from './invocation-view.js';
export * from './ports.js';
