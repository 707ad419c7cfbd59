// Which runner runs which capability: plugins register a runner for each key they declare.
import type { Capability } from './capability.js';
import { fail } from '../errors.js';
import type { CapabilityRunner } from './ports.js';

export class RunnerDirectory {
  private readonly byKey = new Map<string, CapabilityRunner>();

  assign(key: string, runner: CapabilityRunner): void {
    if (this.byKey.has(key)) fail('invalid_request', `a runner is already assigned to ${key}`);
    this.byKey.set(key, runner);
  }

  /** Frees a key whose capability left the registry (an imported tool the upstream no longer lists). */
  release(key: string): void {
    this.byKey.delete(key);
  }

  runnerFor(capability: Capability): CapabilityRunner {
    const runner = this.byKey.get(capability.key);
    if (!runner) fail('internal_error', `no runner for ${capability.key}`);
    return runner!;
  }
}
