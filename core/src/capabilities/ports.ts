// What running a capability needs from the outside world: a runner per capability type
// (CapabilityRunner, handed the caller's side of the run, CallerChannel) and a store for large binary
// parts (BlobStore). Each port is an interface and a same-named token the composition root binds an
// adapter to.
import type { Capability } from './capability.js';
import type { UpstreamLogEntry } from './tool-content.js';

// The runner port: what runs one capability.
export interface RunContext {
  /** Milliseconds the runner may take before it must give up with upstream_timeout. */
  timeoutMs: number;
  invocationId: string;
  actor: string;
  /** Aborted when the caller withdraws the call; a runner passes it on to its upstream. */
  signal?: AbortSignal;
  /** The caller's side of an MCP call, when there is one: progress and the requests an upstream makes of it. */
  channel?: CallerChannel;
  /** The MCP revision the caller speaks, when it is an MCP caller: a tool runner passes it on (ToolCallOptions.callerProtocol). */
  callerProtocol?: string;
  /** Keeps a log message the upstream sent during the run with the invocation. */
  log?: (entry: UpstreamLogEntry) => void;
}

/** Runs one capability. Throws coded errors (SwitchyardError) for every way a run can fail. */
export interface CapabilityRunner {
  run(capability: Capability, args: unknown, context: RunContext): Promise<unknown>;
}
export const CapabilityRunner = Symbol.for('switchyard.CapabilityRunner');

// The caller's side of a run, when it has one (an MCP client): progress and log messages it is
// told, and the questions an upstream may ask it (elicitation, sampling).
/** One progress step, as MCP's notifications/progress carries it. */
export interface ProgressStep {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What the caller of a run can be told or asked while it runs. `elicit` and `sample` are present
 * only when the caller's client declared it can answer them; an upstream asking for one that is
 * absent fails the run (elicitation_unsupported, sampling_unsupported).
 */
export interface CallerChannel {
  progress?(step: ProgressStep): void;
  /** A log message the upstream sent while the run ran; present only when the caller asked for log messages (logging/setLevel). */
  log?(entry: UpstreamLogEntry): void;
  /** `key`: the name a 2026-07-28 upstream gave the question in its inputRequests, kept when it is passed on the same way. */
  elicit?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
  sample?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
  /** The caller's roots (roots/list); only a 2026-07-28 caller that declared roots is asked (else roots_unsupported). */
  listRoots?(params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
}

// The blob store port: large binary content of tool results, kept once by its SHA-256.
/** The stored bytes of a blob and their media type. */
export interface Blob {
  sha256: string;
  size: number;
  mimeType: string | null;
  bytes: Buffer;
}

/** The blob table: content-addressed, written once (a second put of the same bytes is a no-op). */
export interface BlobStore {
  put(blob: Blob): Promise<void>;
  get(sha256: string): Promise<Blob | undefined>;
}
export const BlobStore = Symbol.for('switchyard.BlobStore');
