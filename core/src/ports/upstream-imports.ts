// The imported MCP servers' port: their status, and a refresh of one.
import type { UpstreamAddress } from './upstream-tool-client.js';

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
}

/** The imported MCP servers: list them, and list one's tools again (upstream_not_found for an unknown name). */
export interface UpstreamImports {
  list(): UpstreamStatus[];
  refresh(name: string): Promise<UpstreamRefresh>;
  /** The capability keys imported from server `name` (undefined when no such server is configured). */
  keysOf(name: string): string[] | undefined;
  /** Sends a non-tool MCP request (resources, prompts, completion) to server `name` unchanged. */
  forward(name: string, method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
  /** Called with server `name` and the params of each notifications/resources/updated it sends; returns a function that stops listening. */
  onResourceUpdated(listener: (name: string, params: { uri: string } & Record<string, unknown>) => void): () => void;
}
export const UpstreamImports = Symbol.for('switchyard.UpstreamImports');
