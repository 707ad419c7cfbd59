// The capability registry: the tree root > system > key, with schemas compiled once at boot.
import { ROOT, KEY_PATTERN, type Capability, type CapabilityDefinition } from './capability.js';
import { SwitchyardError, fail } from './errors.js';
import { compileValidator, createAjv, type ArgumentValidator } from './validation.js';
import { suggestKeys } from './suggest.js';

export interface RegistryEntry {
  capability: Capability;
  validate: ArgumentValidator;
}

export interface SystemNode {
  system: string;
  capabilities: Capability[];
}

export class CapabilityRegistry {
  private readonly entries = new Map<string, RegistryEntry>();
  private readonly ajv = createAjv();

  /** Fails loudly at boot on a duplicate key, a bad key or a schema strict Ajv will not compile. */
  register(definition: CapabilityDefinition, upstreamUrl?: string): Capability {
    const { key } = definition;
    if (!KEY_PATTERN.test(key)) fail('invalid_request', `capability key ${JSON.stringify(key)} must match ${KEY_PATTERN}`);
    if (this.entries.has(key)) fail('invalid_request', `duplicate capability key ${key}`);
    if (!/^[A-Z][A-Z0-9_]*$/.test(definition.system)) fail('invalid_request', `system of ${key} must be upper case`);
    let validate: ArgumentValidator;
    try {
      validate = compileValidator(this.ajv, definition.inputs);
    } catch (err) {
      throw new SwitchyardError('invalid_request', `input schema of ${key} does not compile: ${(err as Error).message}`);
    }
    const capability: Capability = {
      ...definition,
      bodyFormat: definition.bodyFormat ?? 'json',
      path: [ROOT, definition.system, key],
      ...(upstreamUrl ? { upstreamUrl } : {}),
    };
    this.entries.set(key, { capability, validate });
    return capability;
  }

  get(key: string): RegistryEntry | undefined {
    return this.entries.get(key);
  }

  /** The entry, or unknown_capability with did_you_mean: a caller should never guess a key. */
  require(key: string): RegistryEntry {
    const entry = this.entries.get(key);
    if (!entry) {
      fail('unknown_capability', `no capability with key ${JSON.stringify(key)}`, {
        key,
        did_you_mean: this.suggest(key),
      });
    }
    return entry!;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  suggest(key: string): string[] {
    return suggestKeys(key, [...this.entries.keys()]);
  }

  list(): Capability[] {
    return [...this.entries.values()].map((e) => e.capability).sort((a, b) => a.key.localeCompare(b.key));
  }

  systems(): SystemNode[] {
    const bySystem = new Map<string, Capability[]>();
    for (const c of this.list()) {
      const list = bySystem.get(c.system) ?? [];
      list.push(c);
      bySystem.set(c.system, list);
    }
    return [...bySystem.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([system, capabilities]) => ({ system, capabilities }));
  }

  get size(): number {
    return this.entries.size;
  }
}
