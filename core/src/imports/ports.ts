// What importing upstream tools needs from the outside world: the MCP client (UpstreamToolClient),
// the imports as the faces ask them (UpstreamImports), refreshes shared between processes
// (ImportedStateChannel), pins (ToolPinStore) and upstream sign-in (UpstreamCredentialStore,
// UpstreamOAuth). Each port is an interface and a same-named token the composition root binds an
// adapter to.
import type { ContentBlock, UpstreamLogEntry, McpToolDescription, CallerChannel } from '../capabilities/index.js';
import type { HeldTool } from './tool-review.js';
import type { DefinitionChange } from './tool-diff.js';
import type { ToolPin } from './tool-pin.js';

// The upstream MCP client port, and the address and result of a tool call.
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

// The imported MCP servers' port: their status, a refresh of one, and the tools held for review.
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

// What a refresh of an imported MCP server found, shared by every process on one database: the
// process that refreshed stores it and tells the others, which serve the same tools and holds
// from it at once, without listing the server themselves.
/** One imported server as a refresh left it: its listing, the keys served and the tools held. */
export interface ImportedServerState {
  server: string;
  /** The upstream's address: a process that configures another address under this name keeps its own. */
  address: string;
  listing: McpToolDescription[];
  served: string[];
  held: HeldTool[];
  omitted: number;
  refreshed_at: string;
}

/** A stored state with its version (higher is newer, per server). */
export interface VersionedServerState extends ImportedServerState {
  version: number;
}

export interface ImportedStateChannel {
  /** Stores what this process's refresh found and tells every process (itself included); resolves with its version. */
  publish(state: ImportedServerState): Promise<number>;
  /** The state last published for `server`, or null when none was. */
  latest(server: string): Promise<VersionedServerState | null>;
  /**
   * Calls `heard` with a server's name each time a state of it is published, and with null when
   * publications may have been missed (the connection to the database came back): every server may
   * have changed. Resolves once listening.
   */
  listen(heard: (server: string | null) => void): Promise<{ close(): Promise<void> }>;
}
export const ImportedStateChannel = Symbol.for('switchyard.ImportedStateChannel');

/** One process (SQLite): nobody else to tell, nothing to hear; versions count this process's refreshes. */
export class LocalImportedStateChannel implements ImportedStateChannel {
  private version = 0;

  async publish(): Promise<number> {
    return ++this.version;
  }

  async latest(): Promise<null> {
    return null;
  }

  async listen(): Promise<{ close(): Promise<void> }> {
    return { close: async () => {} };
  }
}

// Pinned tool definitions, append-only: each pin is also a leaf of the Merkle log (kind tool_definition).
export interface ToolPinStore {
  /** Appends pins (one transaction). */
  pin(pins: ToolPin[]): Promise<void>;
  /** The pin in force of each tool of server `server` (by its upstream name): its newest. */
  current(server: string): Promise<ToolPin[]>;
  /** One pin by id. */
  get(id: string): Promise<ToolPin | undefined>;
}
export const ToolPinStore = Symbol.for('switchyard.ToolPinStore');

// The upstream credentials' port: one sealed (encrypted) record per upstream that signs in with
// OAuth, shared by every process, written by compare-and-swap, with a short lease so one process
// at a time refreshes a token.
/** What is stored for one upstream: the sealed record, its version, and the state shown to the owner. */
export interface StoredUpstreamCredentials {
  upstream: string;
  /** The encrypted record (client registration, tokens, a pending connection); opaque here. */
  sealed: string;
  /** Bumped by every write; a write names the version it read. */
  version: number;
  state: UpstreamAuthState;
  updatedAt: string;
}

/** connected: tokens stored; not_connected: the owner has not connected it yet; reconnect: the tokens were refused. */
export type UpstreamAuthState = 'connected' | 'not_connected' | 'reconnect';

export interface UpstreamCredentialStore {
  get(upstream: string): Promise<StoredUpstreamCredentials | undefined>;
  /** Writes when the stored version is still `expected` (null: nothing stored yet); false when another write came first. */
  put(upstream: string, sealed: string, state: UpstreamAuthState, expected: number | null): Promise<boolean>;
  /** Takes the upstream's refresh lease for `ms` unless another holder's lease is still running. */
  lease(upstream: string, holder: string, ms: number): Promise<boolean>;
  release(upstream: string, holder: string): Promise<void>;
  /** Every upstream's state, without the sealed records. */
  states(): Promise<Array<{ upstream: string; state: UpstreamAuthState; updatedAt: string }>>;
}
export const UpstreamCredentialStore = Symbol.for('switchyard.UpstreamCredentialStore');

// The upstream OAuth port: upstreams that sign in with OAuth, as the owner sees and connects them.
export type UpstreamOAuthGrant = 'client_credentials' | 'authorization_code';

export interface UpstreamOAuthStatus {
  /** The upstream's name in config upstreams.servers. */
  name: string;
  grant: UpstreamOAuthGrant;
  state: UpstreamAuthState;
  /** When the state last changed (connected, refreshed, refused), or null when nothing is stored. */
  updated_at: string | null;
}

export interface UpstreamOAuth {
  list(): Promise<UpstreamOAuthStatus[]>;
  /**
   * Starts the owner's consent for an authorization-code upstream: the authorization server's URL
   * the owner's browser goes to. `state` binds the answer to this start; `redirectUri` is where it comes back.
   */
  begin(name: string, redirectUri: string, state: string): Promise<string>;
  /**
   * Exchanges the code the authorization server sent back (with its state) and stores the tokens.
   * `iss` is the answer's iss parameter (RFC 9207), null when it had none: checked before the code is used.
   */
  complete(name: string, state: string, code: string, iss?: string | null): Promise<void>;
}
export const UpstreamOAuth = Symbol.for('switchyard.UpstreamOAuth');
