// The imported MCP servers' port: their status, a refresh of one, and the tools held for review.
import type { UpstreamAddress, ForwardedRequestOptions } from './upstream-tool-client.js';
import type { HeldTool } from '../tool-review.js';
import type { DefinitionChange } from '../tool-diff.js';
import type { ToolPin } from '../tool-pin.js';

/** One imported MCP server as the owner sees it (GET /api/upstreams). */
export interface UpstreamStatus {
  name: string;
  system: string;
  transport: UpstreamAddress['transport'];
  address: string;
  /** ok: the last refresh listed its tools; error: it failed (the earlier set, if any, stays); pending: not yet tried. */
  status: 'ok' | 'error' | 'pending';
  tools: number;
  keys: string[];
  last_refresh: string | null;
  last_error: { code: string; message: string } | null;
}

/** What a refresh changed. */
export interface UpstreamRefresh {
  ok: true;
  server: string;
  system: string;
  added: string[];
  removed: string[];
  count: number;
  /** Tools whose input schema was replaced by a plain object schema on import. */
  simplified: string[];
  /** Keys held for the owner's review (changed, new or removed), when there are any. */
  held?: string[];
  /** Tools not imported, with why (a definition too large to pin), when there are any. */
  refused?: Array<{ tool: string; code: string; message: string }>;
}

/** A held tool with its readable difference from the pin in force. */
export interface HeldToolChanges extends HeldTool {
  /** The pinned and listed definitions, parsed (null where there is none). */
  before: unknown;
  after: unknown;
  diff: DefinitionChange[];
  flapping: boolean;
}

/** The imported MCP servers: list them, and list one's tools again (upstream_not_found for an unknown name). */
export interface UpstreamImports {
  list(): UpstreamStatus[];
  refresh(name: string): Promise<UpstreamRefresh>;
  /** The capability keys imported from server `name` (undefined when no such server is configured). */
  keysOf(name: string): string[] | undefined;
  /** Sends a non-tool MCP request (resources, prompts, completion) to server `name` unchanged; `options` as UpstreamToolClient.request's (the timeout is the import's). */
  forward(name: string, method: string, params: Record<string, unknown> | undefined, options?: Omit<ForwardedRequestOptions, 'timeoutMs'>): Promise<Record<string, unknown>>;
  /** Every tool held for review, by key, with how many each server left out past the bound. */
  held(): { tools: HeldTool[]; omitted: number };
  /** One held tool and what changed (not_found when the key is not held). */
  changes(key: string): HeldToolChanges;
  /**
   * Approves the held definition of `key`: `hash` must be the one held now (tool_hash_stale
   * otherwise, tool_flapping while it keeps changing). Pins it (a ledger entry) and serves the tool.
   */
  approve(key: string, hash: string, actor: string): Promise<ToolPin>;
  /** Called with server `name` and the params of each notifications/resources/updated it sends; returns a function that stops listening. */
  onResourceUpdated(listener: (name: string, params: { uri: string } & Record<string, unknown>) => void): () => void;
}
export const UpstreamImports = Symbol.for('switchyard.UpstreamImports');
