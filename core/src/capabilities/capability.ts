// The capability model: what a plugin declares, and the tree it lives in (root > system > key).
import type { JsonSchema } from '../json-schema.js';

export const ROOT = 'OIP';

/** How the dispatch body string becomes arguments. */
export type BodyFormat = 'json' | 'pipe';

export interface CostModel {
  /** Integer micro-units charged per run that reached the runner. */
  perRunMicros: number;
  /** Extra micro-units per item of a list argument (e.g. each phone number). */
  perItemMicros?: number;
  /** The argument whose array length counts as items. */
  itemsFrom?: string;
}

/** MCP's tool annotations: hints about what a tool does, as its author declares them. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

export interface CapabilityDefinition {
  key: string;
  /** Tree path below the root: [SYSTEM]; the key itself is the leaf. */
  system: string;
  description: string;
  type: 'tool' | 'fn';
  /** Runner name shown in the self-description, e.g. "edge builds". */
  runner: string;
  inputs: JsonSchema;
  bodyFormat?: BodyFormat;
  auth: 'none' | 'required';
  risk: 'low' | 'high';
  approval: boolean;
  /** Limits shown in the contract; schema-enforced ones live in `inputs`. */
  limits?: { plan?: string; notes?: string[] };
  cost?: CostModel;
  /** Upstream tool name for type tool. */
  tool?: string;
  /** A human title (an imported tool's, as the upstream gave it). */
  title?: string;
  /** MCP tool annotations, as declared (imported: exactly the upstream's; absent stays absent). */
  annotations?: ToolAnnotations;
  /** The JSON Schema of the tool's structuredContent, as the upstream declared it. */
  outputSchema?: JsonSchema;
  /** The upstream tool's `_meta`, unchanged. */
  meta?: Record<string, unknown>;
  /** An imported tool: the hash of its upstream definition (tool-definition.ts), pinned in the ledger. */
  definition_hash?: string;
  /** An imported tool with a config override (tool-override.ts): the override's hash, pinned beside definition_hash. */
  override_hash?: string;
  /** The tool's name as an override exposes it (its upstream name stays in `tool`). */
  shown_name?: string;
  /** Arguments an override fixes: out of the shown schema, put into every run, a caller's value replaced. */
  fixed_arguments?: Record<string, unknown>;
  /** Example arguments for the contract and the plugin contract suite. */
  example: unknown;
}

export interface Capability extends CapabilityDefinition {
  bodyFormat: BodyFormat;
  /** root, system, key */
  path: [string, string, string];
  /** Where the runner reaches its upstream; filled by the host at registration. */
  upstreamUrl?: string;
  /** The upstream account's plan, from the plugin's options (see plan.ts); filled by the host at registration. */
  accountPlan?: string;
}

/** One system of the tree (root › system › key) with its capabilities. */
export interface SystemNode {
  system: string;
  capabilities: Capability[];
}

export const KEY_PATTERN = /^[A-Z][A-Z0-9_]{1,127}$/;

/**
 * The canonical spelling of a key a caller names: keys match without regard to letter case, and
 * records keep the upper-case key. ASCII letters only, so no other character can turn into a key's.
 */
export const canonicalKey = (name: string): string => name.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

export const pathText = (c: Pick<Capability, 'path'>): string => c.path.join(' > ');
