// The runner port: what runs one capability.
import type { Capability } from '../capability.js';

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
