// The capability registry: the tree root > system > key, with schemas compiled once at boot.
import { ROOT, KEY_PATTERN, canonicalKey, type Capability, type CapabilityDefinition, type SystemNode } from './capability.js';
import { SwitchyardError, fail } from '../errors.js';
import { compileValidator, createAjv, type ArgumentValidator } from '../validation.js';
import { CapabilityIndex, type AskAnswer } from './capability-index.js';
import { buildMap, type BuildMap } from './build-map.js';
import { isImportedTool } from './imported-tool.js';
import { UPSTREAM_VALIDATES, UpstreamSchemaValidators } from './upstream-schema.js';

export interface RegistryEntry {
  capability: Capability;
  validate: ArgumentValidator;
}

/** A key held for review, as dispatch names it in its tool_changed answer. */
export interface HeldKey {
  key: string;
  reason: 'changed' | 'new' | 'removed';
  pinned_hash: string | null;
  listed_hash: string | null;
}

export class CapabilityRegistry {
  private readonly entries = new Map<string, RegistryEntry>();
  private readonly ajv = createAjv();
  private upstreamSchemas?: UpstreamSchemaValidators;
  private changes = 0;
  // Views derived from the entries, rebuilt on first use after a change (never per request).
  private derived?: { version: number; index: CapabilityIndex; build?: BuildMap };
  /** Imported tools held for the owner's review (tool-review.ts): never registered, and require() answers tool_changed. */
  private readonly held = new Map<string, { system: string; hold: HeldKey }>();

  /**
   * Fails loudly at boot on a duplicate key, a bad key or a schema strict Ajv will not compile. An
   * imported tool's schema is the upstream's: checked in its own dialect, or by the upstream when
   * no validator here compiles it.
   */
  register(definition: CapabilityDefinition, upstreamUrl?: string, account: { plan?: string } = {}): Capability {
    const { key } = definition;
    if (!KEY_PATTERN.test(key)) fail('invalid_request', `capability key ${JSON.stringify(key)} must match ${KEY_PATTERN}`);
    if (this.entries.has(key)) fail('invalid_request', `duplicate capability key ${key}`);
    if (!/^[A-Z][A-Z0-9_]*$/.test(definition.system)) fail('invalid_request', `system of ${key} must be upper case`);
    let validate: ArgumentValidator;
    try {
      validate = isImportedTool(definition)
        ? ((this.upstreamSchemas ??= new UpstreamSchemaValidators()).compile(definition.inputs) ?? UPSTREAM_VALIDATES)
        : compileValidator(this.ajv, definition.inputs);
    } catch (err) {
      throw new SwitchyardError('invalid_request', `input schema of ${key} does not compile: ${(err as Error).message}`);
    }
    const capability: Capability = {
      ...definition,
      bodyFormat: definition.bodyFormat ?? 'json',
      path: [ROOT, definition.system, key],
      ...(upstreamUrl ? { upstreamUrl } : {}),
      ...(account.plan ? { accountPlan: account.plan } : {}),
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

  /**
   * The one place a key a caller names is matched: in any letter case (see canonicalKey). Callers
   * record `capability.key`, the canonical upper-case key, never the name as given.
   */
  get(key: string): RegistryEntry | undefined {
    return this.entries.get(canonicalKey(key));
  }

  /**
   * Replaces the held keys of one system (an imported server's review). A held key is left out of
   * every listing (it is not an entry) and nothing runs under it.
   */
  holdKeys(system: string, holds: HeldKey[]): void {
    for (const [key, h] of this.held) if (h.system === system) this.held.delete(key);
    for (const hold of holds) this.held.set(hold.key, { system, hold });
  }

  /** The hold on a key, in any letter case (undefined when the key is not held). */
  heldKey(key: string): HeldKey | undefined {
    return this.held.get(canonicalKey(key))?.hold;
  }

  /**
   * The entry; tool_changed (nothing runs) for a held key; or unknown_capability with did_you_mean:
   * a caller should never guess a key.
   */
  require(key: string): RegistryEntry {
    const entry = this.get(key);
    const hold = entry ? undefined : this.heldKey(key);
    if (hold) {
      fail('tool_changed', `${hold.key} is held for the owner's review: its definition ${hold.reason === 'new' ? 'is new' : hold.reason === 'removed' ? 'is no longer listed by its server' : 'changed upstream'}; nothing ran`, {
        ...hold,
        review: `/api/tools/${hold.key}/changes`,
      });
    }
    if (!entry) {
      fail('unknown_capability', `no capability with key ${JSON.stringify(key)}`, {
        key,
        did_you_mean: this.suggest(key),
      });
    }
    return entry!;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The registered key a caller's name stands for, in any letter case; undefined when unknown. */
  keyOf(name: string): string | undefined {
    return this.get(name)?.capability.key;
  }

  /** did_you_mean for an unknown key: the one suggester every 404 uses. */
  suggest(key: string): string[] {
    return this.views().index.suggest(key);
  }

  /** Plain-language lookup: ranked capabilities for a question or a key. */
  ask(question: string, limit?: number): AskAnswer {
    return this.views().index.ask(question, limit);
  }

  /** The whole registry as one map with its terminal key. */
  build(): BuildMap {
    const views = this.views();
    views.build ??= buildMap(this.systems());
    return views.build;
  }

  private views(): NonNullable<CapabilityRegistry['derived']> {
    if (this.derived?.version !== this.changes) this.derived = { version: this.changes, index: new CapabilityIndex(this.list()) };
    return this.derived;
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
