// What an upstream answered, as Switchyard keeps it: the tool result (value, text, content blocks,
// structured content), its weight against dispatch.maxResultBytes, and whether an error says the
// upstream never saw the request (so it may be sent again on a new session).
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { textOf, type ContentBlock, type ToolCallResult } from '@switchyard/core';

/** Any result object (the SDK's base schema keeps unknown fields): forwarded as the upstream gave it. */
export const AnyResult = ResultSchema;

/**
 * An error that says the upstream never saw the request on our session, so sending it again on a
 * new one cannot run anything twice: the server refused the session unread, the connection was
 * refused, a kept-alive socket turned out closed before the request went out (marked by
 * lean-fetch), or the SDK found the connection closed before writing.
 */
export function isStaleSession(err: unknown): boolean {
  // The spec says 404 for a session the server does not know; many servers (server-everything
  // among them) answer 400 "No valid session ID". Either way the request was refused unread.
  if (err instanceof StreamableHTTPError) return err.code === 404 || (err.code === 400 && /session/i.test(err.message));
  if (err instanceof McpError) return false;
  if (err instanceof Error && err.message === 'Not connected') return true;
  const e = err as { code?: unknown; unsent?: unknown; cause?: { code?: unknown; unsent?: unknown } } | null;
  return e?.code === 'ECONNREFUSED' || e?.cause?.code === 'ECONNREFUSED' || e?.unsent === true || e?.cause?.unsent === true;
}

/** What an answer weighs: the text and base64 of its content blocks and its structured content as JSON. */
export function answerBytes(result: { content?: unknown; structuredContent?: unknown }): number {
  let bytes = 0;
  if (Array.isArray(result.content)) {
    for (const block of result.content as Array<Record<string, unknown>>) {
      for (const value of [block['text'], block['data'], (block['resource'] as Record<string, unknown> | undefined)?.['text'], (block['resource'] as Record<string, unknown> | undefined)?.['blob']]) {
        if (typeof value === 'string') bytes += value.length;
      }
    }
  }
  if (result.structuredContent !== undefined) bytes += JSON.stringify(result.structuredContent)?.length ?? 0;
  return bytes;
}

export function toToolCallResult(result: { isError?: boolean; content?: unknown; structuredContent?: unknown }): ToolCallResult {
  const content = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const text = textOf(content);
  let value: unknown = result.structuredContent;
  if (value === undefined) value = maybeJson(text);
  return { isError: result.isError === true, value, text, content, ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}) };
}

/** JSON text can only start (after JSON's whitespace) with one of these. */
const JSON_START = /^[ \t\n\r]*[{["\-0-9tfn]/;

/**
 * The text parsed as JSON, or the text itself. Plain text (most tool answers) is told apart
 * without JSON.parse: its throw, with the stack it captures, cost more than the rest of the answer.
 */
function maybeJson(text: string): unknown {
  if (!JSON_START.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
