// Which protocol era a POST to an MCP face speaks. 2026-07-28 requests carry their version in the
// per-request _meta envelope (and the MCP-Protocol-Version header names it); everything else
// (initialize, a 2025 session's requests, batches, answers) is the 2025 era. The same rule as the
// v2 SDK's isLegacyRequest, read from the parsed body and the header without building a Request.
import type { Request } from 'express';

/** The envelope key that claims the 2026 era (its value is the version the caller speaks). */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
/** The revisions of the 2026 era this service serves. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

export function isModernRequest(req: Request): boolean {
  const header = req.get('mcp-protocol-version');
  if (header !== undefined && MODERN_VERSIONS.includes(header)) return true;
  const body = req.body as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const params = (body as { params?: unknown }).params;
  const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  return typeof meta === 'object' && meta !== null && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}
