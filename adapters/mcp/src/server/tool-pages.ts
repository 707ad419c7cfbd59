// tools/list paging: tools sorted by name, a page at a time; the cursor is the last name of the
// page (base64url), so a page boundary holds while tools come and go between requests.
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** Tools listed per page when config does not say (mcp.pageSize). */
export const DEFAULT_PAGE_SIZE = 100;

const encode = (name: string): string => Buffer.from(`after:${name}`, 'utf8').toString('base64url');

/** The name a cursor points after; a cursor we did not make is InvalidParams (-32602). */
function decode(cursor: string): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!text.startsWith('after:') || encode(text.slice(6)) !== cursor) {
    throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${JSON.stringify(cursor.slice(0, 80))}: pass back a nextCursor from tools/list`);
  }
  return text.slice(6);
}

export function pageOfTools(tools: Tool[], cursor: string | undefined, pageSize: number): { tools: Tool[]; nextCursor?: string } {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const after = cursor === undefined ? undefined : decode(cursor);
  const rest = after === undefined ? sorted : sorted.filter((t) => t.name > after);
  const page = rest.slice(0, pageSize);
  return rest.length > pageSize ? { tools: page, nextCursor: encode(page[page.length - 1]!.name) } : { tools: page };
}
