// @switchyard/verifier: everything needed to check a Switchyard log from outside, with nothing but
// Node's own crypto. RFC 6962 trees and proofs, C2SP signed notes and checkpoints, tlog-proof files,
// tlog-tiles formats, canonical JSON (RFC 8785) and the commitments of leaves. The service builds
// on it; it knows nothing of the service.
export * from './merkle.js';
export * from './signed-note.js';
export * from './tlog-proof.js';
export * from './tlog-tiles.js';
export * from './canonical-json.js';
export * from './commitment.js';
export * from './cosignature.js';
