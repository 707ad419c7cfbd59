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
  private changes = 0;

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
    this.changes++;
    return capability;
  }

  /**
   * Swaps every capability of one system for a new set (an imported MCP server after tools/list
   * changed). All definitions are checked before anything changes: a bad one leaves the old set.
   * Returns the keys added and removed.
   */
  replaceSystem(system: string, definitions: CapabilityDefinition[], upstreamUrl?: string): { added: string[]; removed: string[] } {
    const before = [...this.entries.values()].filter((e) => e.capability.system === system).map((e) => e.capability.key);
    const staged = new CapabilityRegistry();
    for (const def of definitions) {
      if (def.system !== system) fail('invalid_request', `${def.key} belongs to ${def.system}, not ${system}`);
      if (this.entries.has(def.key) && this.entries.get(def.key)!.capability.system !== system) fail('invalid_request', `duplicate capability key ${def.key}`);
      staged.register(def, upstreamUrl);
    }
    for (const key of before) this.entries.delete(key);
    for (const [key, entry] of staged.entries) this.entries.set(key, entry);
    this.changes++;
    const after = new Set(staged.entries.keys());
    return { added: [...after].filter((k) => !before.includes(k)), removed: before.filter((k) => !after.has(k)) };
  }

  /** Grows on every change, so derived views (the ask index, the build key) know when to rebuild. */
  get version(): number {
    return this.changes;
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
