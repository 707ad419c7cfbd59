// Bad params on the MCP faces (an oversized _meta included) are JSON-RPC -32602 (Invalid params). The SDK checks a request's
// params inside its handlers and reports a mismatch as -32603 (internal error), which tells a
// client the fault is ours; so a request of a known method is checked against the protocol's own
// schema first, and one that does not match is answered -32602 here, before any server is built.
import type { RequestHandler } from 'express';
import { ClientRequestSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { MAX_META_BYTES, metaOverLimit } from '@switchyard/core';
import { isModernRequest } from './mcp-era.js';

const KNOWN = new Map(ClientRequestSchema.options.map((schema) => [schema.shape.method.value as string, schema]));

export const mcpParamsCheck: RequestHandler = (req, res, next) => {
  const message = req.body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } | undefined;
  // Batches, responses and notifications go to the SDK as they are.
  if (!message || Array.isArray(message) || typeof message.method !== 'string' || message.id === undefined) return next();
  // An oversized _meta is refused in either era, before anything reads it (MAX_META_BYTES says why).
  const meta = typeof message.params === 'object' && message.params !== null ? (message.params as { _meta?: unknown })._meta : undefined;
  const metaBytes = metaOverLimit(meta);
  if (metaBytes !== undefined) {
    res.status(200).json({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: _meta is ${metaBytes} bytes of JSON, more than ${MAX_META_BYTES}`, data: { code: 'meta_too_large', bytes: metaBytes, limit: MAX_META_BYTES } } });
    return;
  }
  // A 2026-07-28 request is checked by the v2 SDK against that revision's schemas.
  if (isModernRequest(req)) return next();
  const schema = KNOWN.get(message.method);
  if (!schema) return next();
  const parsed = schema.safeParse({ method: message.method, ...(message.params === undefined ? {} : { params: message.params }) });
  if (parsed.success) return next();
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).slice(0, 5);
  res.status(200).json({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params for ${message.method}: ${issues.join('; ')}`, data: { code: 'invalid_request', issues } } });
};
