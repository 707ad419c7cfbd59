// The upstream MCP client port, and the address and result of a tool call.
import type { ContentBlock, UpstreamLogEntry } from '../content.js';
import type { McpToolDescription } from '../imported-tool.js';
import type { CallerChannel } from './caller-channel.js';

/** How one upstream tool call is made. */
export interface ToolCallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  channel?: CallerChannel;
  /** Called with each notifications/message the upstream sends while the call runs. */
  onLog?: (entry: UpstreamLogEntry) => void;
  /**
   * The MCP protocol revision the caller speaks (its face's: '2026-07-28' on the 2026 faces), when
   * the call comes from an MCP caller. An upstream that speaks both eras is spoken the caller's era
   * (2026-07-28 for a 2026 caller, else 2025-11-25), so what the caller's revision can do (an
   * upstream's InputRequiredResult) reaches it. Left out (REST, webhooks, CLI): 2025-11-25.
   */
  callerProtocol?: string;
}

/** How one forwarded request (resources, prompts, completion) is made. */
export interface ForwardedRequestOptions {
  timeoutMs: number;
  /** As in ToolCallOptions: which era a dual-era upstream is spoken for this caller. */
  callerProtocol?: string;
  /** The caller's side, when it can answer an upstream's questions (elicitation, sampling) asked while the request runs. */
  channel?: CallerChannel;
}

/** A connection to upstream MCP tool servers, reused across calls. */
export interface UpstreamToolClient {
  callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult>;
  /** Every tool the upstream lists (all pages of tools/list). */
  listTools(upstream: UpstreamAddress, options: { timeoutMs: number }): Promise<McpToolDescription[]>;
  /** Called when a connected upstream says its tool list changed; returns a function that stops listening. */
  onToolListChanged(listener: (upstream: UpstreamAddress) => void): () => void;
  /**
   * Called with the params of each notifications/resources/updated a connected upstream sends (for
   * a subscription made with request()); returns a function that stops listening. Optional: only
   * the MCP client adapter has subscriptions.
   */
  onResourceUpdated?(listener: (upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>) => void): () => void;
  /**
   * Any other MCP request (resources, prompts, completion) sent to the upstream as it is; the
   * answer is the upstream's result; a JSON-RPC error from it is thrown as the client's own error,
   * code kept. A 2026-07-28 caller (`callerProtocol`) over a 2026 connection gets an upstream's
   * InputRequiredResult as it is (`resultType: 'input_required'`), to answer itself and retry with
   * `inputResponses` and `requestState` in params. Optional: only the MCP client adapter forwards.
   */
  request?(upstream: UpstreamAddress, method: string, params: Record<string, unknown> | undefined, options: ForwardedRequestOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
export const UpstreamToolClient = Symbol.for('switchyard.UpstreamToolClient');

export interface UpstreamAddress {
  /** The server's URL; for stdio a display address (stdio:<server name>); the command names the connection. */
  url: string;
  transport: 'sse' | 'streamable-http' | 'stdio';
  headers?: Record<string, string>;
  /** stdio: the program started once and kept running; restarted by the next call after it exits. */
  command?: string;
  args?: string[];
  /** stdio: added to a minimal default environment (PATH, HOME…), never the service's whole one. */
  env?: Record<string, string>;
  cwd?: string;
  /** streamable-http: the upstream's name when it signs in with OAuth (upstreams.servers.<name>.oauth). */
  oauth?: string;
}

export interface ToolCallResult {
  isError: boolean;
  /** structuredContent when the tool gave it, else the text content (parsed as JSON when it is JSON). */
  value: unknown;
  text: string;
  /** The content blocks exactly as the upstream sent them. */
  content: ContentBlock[];
  /** The upstream's structuredContent, when it gave one. */
  structuredContent?: unknown;
}
