// The MCP revisions this adapter speaks, named once for both rooms: the server faces (server/) and
// the upstream client (upstream/). 2025-11-25 and earlier are the SDK v1's; 2026-07-28 the v2's.
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
