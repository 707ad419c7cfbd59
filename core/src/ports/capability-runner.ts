// The runner port: what runs one capability.
import type { Capability } from '../capability.js';
import type { UpstreamLogEntry } from '../content.js';
import type { CallerChannel } from './caller-channel.js';

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
