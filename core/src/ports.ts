// Ports: what the core needs from the outside world. Each is an interface plus a same-named token
// that the composition root binds an adapter to.
import type { Capability } from './capability.js';
import type { InvocationRecord, RepairLink, StoredInvocation } from './invocation.js';
import type { ActionRecord, DeliveryRecord, StoredDelivery, Webhook } from './webhook.js';
import type { LedgerEntryKind } from './ledger-leaf.js';
import type { McpToolDescription } from './imported-tool.js';
import type { Article } from './article.js';
import type { TagIndex } from './tag-index.js';
import type { LedgerPageRequest } from './ledger-paging.js';

export interface Page<T> {
  items: T[];
  /** Pass back as `after` for the next page; null at the end. */
  next_cursor: string | null;
}

export interface InvocationStore {
  append(record: InvocationRecord): Promise<StoredInvocation>;
  get(id: string): Promise<StoredInvocation | undefined>;
  /** Invocations (of one capability key when `key` is given) in the ledger listings' order. */
  list(options: LedgerPageRequest & { key?: string }): Promise<Page<StoredInvocation>>;
  /** Every invocation that repairs `id`, directly or down a chain of repairs, in append order. */
  repairChain(id: string): Promise<RepairLink[]>;
}
export const InvocationStore = Symbol.for('switchyard.InvocationStore');

export interface WebhookStore {
  create(webhook: Webhook): Promise<Webhook>;
  get(id: string): Promise<Webhook | undefined>;
  list(): Promise<Webhook[]>;
  update(id: string, changes: Partial<Pick<Webhook, 'name' | 'on' | 'delivery_id_path' | 'signature'>>, at: string): Promise<Webhook | undefined>;
}
export const WebhookStore = Symbol.for('switchyard.WebhookStore');

export interface DeliveryStore {
  /**
   * Appends a delivery. Whether it duplicates an earlier one (same webhook, same delivery id) is
   * decided by the database atomically, never by check-then-insert.
   */
  append(record: DeliveryRecord): Promise<StoredDelivery>;
  appendAction(record: ActionRecord): Promise<void>;
  /** One delivery; a body over `inlineBodyBytes` (default: any size) is left out (`body_omitted`). */
  get(id: string, options?: { inlineBodyBytes?: number }): Promise<StoredDelivery | undefined>;
  /**
   * Deliveries in the ledger listings' order. Bodies over `inlineBodyBytes` are left out and never
   * read: the row gives their size and hash.
   */
  list(options: LedgerPageRequest & { hookId?: string; inlineBodyBytes: number }): Promise<Page<StoredDelivery>>;
  /** Up to `length` bytes of a stored body from `offset`; empty past its end, undefined without a body. */
  readBody(id: string, offset: number, length: number): Promise<Uint8Array | undefined>;
}
export const DeliveryStore = Symbol.for('switchyard.DeliveryStore');

export interface ApiKeyStore {
  /** Stores a hash of the key; storing the same key twice is a no-op. */
  add(key: string, label: string): Promise<void>;
  verify(key: string): Promise<boolean>;
  count(): Promise<number>;
}
export const ApiKeyStore = Symbol.for('switchyard.ApiKeyStore');

export interface RunContext {
  /** Milliseconds the runner may take before it must give up with upstream_timeout. */
  timeoutMs: number;
  invocationId: string;
  actor: string;
}

/** Runs one capability. Throws coded errors (SwitchyardError) for every way a run can fail. */
export interface CapabilityRunner {
  run(capability: Capability, args: unknown, context: RunContext): Promise<unknown>;
}
export const CapabilityRunner = Symbol.for('switchyard.CapabilityRunner');

/** A connection to upstream MCP tool servers, reused across calls. */
export interface UpstreamToolClient {
  callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: { timeoutMs: number }): Promise<ToolCallResult>;
  /** Every tool the upstream lists (all pages of tools/list). */
  listTools(upstream: UpstreamAddress, options: { timeoutMs: number }): Promise<McpToolDescription[]>;
  /** Called when a connected upstream says its tool list changed; returns a function that stops listening. */
  onToolListChanged(listener: (upstream: UpstreamAddress) => void): () => void;
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
}

export interface ToolCallResult {
  isError: boolean;
  /** structuredContent when the tool gave it, else the text content (parsed as JSON when it is JSON). */
  value: unknown;
  text: string;
}

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
}
export const UpstreamImports = Symbol.for('switchyard.UpstreamImports');

export interface Clock {
  now(): Date;
}
export const Clock = Symbol.for('switchyard.Clock');
export const systemClock: Clock = { now: () => new Date() };

/**
 * The request a piece of work belongs to (an HTTP request's id), so ledger records and log lines
 * can be matched. Null outside any request (timers, the CLI, tests of the core).
 */
export interface RequestScope {
  requestId(): string | null;
}
export const RequestScope = Symbol.for('switchyard.RequestScope');
export const noRequestScope: RequestScope = { requestId: () => null };

/** A leaf of the Merkle log, as stored. */
export interface LedgerLeafRecord {
  index: number;
  kind: LedgerEntryKind;
  entry_id: string;
  /** The canonical JSON that was hashed. */
  leaf: string;
  /** Its RFC 6962 leaf hash, hex. */
  leaf_hash: string;
  integrated_at: string;
}

/** A signed tree head: the tree's size, its root (hex) and the signed note that carries them. */
export interface LedgerCheckpoint {
  size: number;
  root: string;
  note: string;
  created_at: string;
}

/** The verifiable ledger: every ledger entry a leaf of one RFC 6962 tree, with signed checkpoints. */
export interface VerifiableLedger {
  readonly origin: string;
  /** The published verifier key of the checkpoint signer (c2sp.org/signed-note form). */
  readonly verifierKey: string;
  /**
   * Moves up to `max` queued entries into the tree (one integrator at a time) and signs a
   * checkpoint. When the batch comes back full, the next `readAhead` entries (default `max`) may be
   * prepared while it is written, for the caller's next call with that size.
   */
  integrate(max?: number, readAhead?: number): Promise<{ integrated: number; size: number }>;
  leafFor(kind: LedgerEntryKind, entryId: string): Promise<LedgerLeafRecord | undefined>;
  /** True while an entry is queued and not yet in the tree. */
  isPending(kind: LedgerEntryKind, entryId: string): Promise<boolean>;
  latestCheckpoint(): Promise<LedgerCheckpoint | undefined>;
  checkpointAt(size: number): Promise<LedgerCheckpoint | undefined>;
  inclusionProof(index: number, size: number): Promise<Uint8Array[]>;
  consistencyProof(size1: number, size2: number): Promise<Uint8Array[]>;
  /** Leaves from index `from`, in tree order. */
  leaves(from: number, limit: number): Promise<LedgerLeafRecord[]>;
  /** The salt of an entry's commitment, which a receipt reveals. */
  commitmentSalt(kind: LedgerEntryKind, entryId: string): string;
}
export const VerifiableLedger = Symbol.for('switchyard.VerifiableLedger');

/** One use of a share token: what it asked for and whether it was allowed. */
export interface TokenUse {
  id: string;
  fingerprint: string;
  move: string;
  outcome: 'allowed' | 'denied';
  /** The error code of a denial (scope_denied, credential_required…), null when allowed. */
  code: string | null;
  /** Method and path of the request, without the token. */
  route: string;
  at: string;
}

export interface TokenUseStore {
  record(use: TokenUse): Promise<void>;
  /** Claims the next of `limit` uses for a token, atomically; false when all are spent. */
  claimUse(fingerprint: string, limit: number): Promise<boolean>;
  /** Uses claimed so far (for uses= caveats). */
  usesClaimed(fingerprint: string): Promise<number>;
  /** Newest first. */
  list(fingerprint: string, limit: number): Promise<TokenUse[]>;
}
export const TokenUseStore = Symbol.for('switchyard.TokenUseStore');

/** Settings the service makes once and every process shares (keys generated at first start). */
export interface SharedSettings {
  /** The stored value, or `make()`'s, written by whichever process came first. */
  once(name: string, make: () => string): Promise<string>;
}
export const SharedSettings = Symbol.for('switchyard.SharedSettings');

/** The owner's decision on an invocation that waited for approval. */
export interface ApprovalRecord {
  id: string;
  /** The invocation that waited. */
  invocation: string;
  decision: 'approved' | 'denied';
  /** What was approved: the hash of the exact arguments. */
  args_hash: string;
  decided_by: string;
  decided_at: string;
  /** The invocation the approval ran (approved only). */
  run_invocation: string | null;
}

export interface ApprovalStore {
  /** Records a decision; an invocation is decided once (already_decided otherwise, atomically). */
  decide(record: ApprovalRecord): Promise<void>;
  get(invocation: string): Promise<ApprovalRecord | undefined>;
  /** Invocations awaiting approval with no decision yet, newest first. */
  pending(limit: number): Promise<StoredInvocation[]>;
}
export const ApprovalStore = Symbol.for('switchyard.ApprovalStore');

/** Published articles (the content pages). Reads answer an index built once per change. */
export interface ArticleStore {
  /** The current articles; cheap enough to call per request. */
  index(): Promise<TagIndex>;
  /** Stores a checked article; article_exists when the slug is taken and `replace` is false. */
  publish(article: Article, options: { replace: boolean }): Promise<{ replaced: boolean }>;
}
export const ArticleStore = Symbol.for('switchyard.ArticleStore');
