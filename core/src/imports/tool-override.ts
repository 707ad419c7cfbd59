// Per-tool overrides of an imported tool, from config (upstreams.servers.<name>.tools.<tool>): the
// name, title and description callers are shown, hidden (not served at all), fixed arguments
// (injected, removed from the shown schema, never overridable: a caller's value is replaced) and
// default arguments (shown as the schema's defaults and applied when a caller leaves them out).
// The upstream's definition and the override are hashed separately, so a change on either side is seen.
import { hash } from 'node:crypto';
import { canonicalJson } from '@switchyard/verifier';
import { KEY_PATTERN, type Capability, type CapabilityDefinition, exampleFor, importedKey, type McpToolDescription } from '../capabilities/index.js';
import type { JsonSchema } from '../json-schema.js';

export interface ToolOverride {
  name?: string;
  title?: string;
  description?: string;
  hidden?: boolean;
  fixed?: Record<string, unknown>;
  default_arguments?: Record<string, unknown>;
}

export const OVERRIDE_FIELDS = ['name', 'title', 'description', 'hidden', 'fixed', 'default_arguments'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Only the override fields of a tool's config entry (auth, risk and approval are its policy), or undefined when it sets none. */
export function overrideOf(entry: Record<string, unknown> | undefined): ToolOverride | undefined {
  if (!entry) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of OVERRIDE_FIELDS) if (entry[field] !== undefined) out[field] = entry[field];
  return Object.keys(out).length > 0 ? (out as ToolOverride) : undefined;
}

/** "sha256:" hex of the override's canonical JSON: pinned beside the upstream's definition hash. */
export const overrideHash = (o: ToolOverride): string => `sha256:${hash('sha256', canonicalJson(o), 'hex')}`;

/** A problem with an override, named by its config key. */
export interface OverrideProblem {
  key: string;
  message: string;
}

/**
 * What is wrong with an override against the tool the server lists: an argument fixed or defaulted
 * that the tool's input schema does not have, one both fixed and defaulted, an exposed name that
 * makes no key. `at` is the tool's config key (upstreams.servers.<name>.tools.<tool>).
 */
export function overrideProblems(tool: McpToolDescription, o: ToolOverride, at: string, system: string): OverrideProblem[] {
  const problems: OverrideProblem[] = [];
  const properties = isObject(tool.inputSchema) && isObject(tool.inputSchema['properties']) ? tool.inputSchema['properties'] : {};
  for (const field of ['fixed', 'default_arguments'] as const) {
    for (const arg of Object.keys(o[field] ?? {})) {
      if (!(arg in properties)) problems.push({ key: `${at}.${field}.${arg}`, message: `tool ${tool.name} has no argument ${arg} (it has: ${Object.keys(properties).sort().join(', ') || 'none'})` });
    }
  }
  for (const arg of Object.keys(o.fixed ?? {})) {
    if (o.default_arguments && arg in o.default_arguments) problems.push({ key: `${at}.default_arguments.${arg}`, message: `${arg} is fixed: a default for it would never apply` });
  }
  if (o.name !== undefined && !KEY_PATTERN.test(importedKey(system, o.name))) problems.push({ key: `${at}.name`, message: `${o.name} makes no capability key` });
  return problems;
}

/** The schema callers are shown: fixed arguments gone (from properties and required), defaults set. */
function shownSchema(schema: JsonSchema, o: ToolOverride): JsonSchema {
  const fixed = Object.keys(o.fixed ?? {});
  const defaults = o.default_arguments ?? {};
  if (fixed.length === 0 && Object.keys(defaults).length === 0) return schema;
  const properties = isObject(schema['properties']) ? { ...schema['properties'] } : {};
  for (const arg of fixed) delete properties[arg];
  for (const [arg, value] of Object.entries(defaults)) if (isObject(properties[arg])) properties[arg] = { ...(properties[arg] as Record<string, unknown>), default: value };
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]).filter((r) => !fixed.includes(r) && !(r in defaults)) : undefined;
  const out: JsonSchema = { ...schema, properties };
  if (required !== undefined) {
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  return out;
}

/** The capability an override makes of an imported definition (null when hidden). */
export function applyOverride(def: CapabilityDefinition, o: ToolOverride): CapabilityDefinition | null {
  if (o.hidden) return null;
  const inputs = shownSchema(def.inputs, o);
  return {
    ...def,
    ...(o.name !== undefined ? { key: importedKey(def.system, o.name), shown_name: o.name } : {}),
    ...(o.title !== undefined ? { title: o.title } : {}),
    ...(o.description !== undefined ? { description: o.description } : {}),
    inputs,
    example: exampleFor(inputs),
    ...(o.fixed && Object.keys(o.fixed).length > 0 ? { fixed_arguments: o.fixed } : {}),
    override_hash: overrideHash(o),
  };
}

/** A caller's arguments with every fixed one taken out (before validation against the shown schema). */
export function withoutFixed(c: Pick<Capability, 'fixed_arguments'>, args: unknown): unknown {
  if (!c.fixed_arguments || !isObject(args)) return args;
  const out = { ...args };
  for (const arg of Object.keys(c.fixed_arguments)) delete out[arg];
  return out;
}

/** Validated arguments with the fixed ones put in: what runs, and what the ledger records. */
export function withFixed(c: Pick<Capability, 'fixed_arguments'>, args: unknown): unknown {
  if (!c.fixed_arguments || !isObject(args)) return args;
  return { ...args, ...c.fixed_arguments };
}
