// Importing an upstream MCP server's tools: each listed tool becomes a capability of one system.
// Pure mapping (tool description + server settings → CapabilityDefinition); the adapters list the
// tools and register the result.
import { createHash } from 'node:crypto';
import { KEY_PATTERN, type CapabilityDefinition, type ToolAnnotations } from './capability.js';
import type { JsonSchema } from '../json-schema.js';
import { UpstreamSchemaValidators } from './upstream-schema.js';
import { SwitchyardError } from '../errors.js';
import { toolDefinitionHash } from './tool-definition.js';

/** auth, risk and approval of an imported tool, as config gives them. */
export interface ImportedToolPolicy {
  auth?: 'none' | 'required';
  risk?: 'low' | 'high';
  approval?: boolean;
}

/** A tool as MCP's tools/list describes it. */
export interface McpToolDescription {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/** What the import needs to know of one configured server. */
export interface ImportedServerSettings {
  /** The server's name in config (upstreams.servers.<name>); the runner is `mcp:<name>`. */
  name: string;
  system: string;
  tools?: Record<string, ImportedToolPolicy>;
  defaults?: ImportedToolPolicy;
}

/** Imported tools run as `mcp:<server name>`: what marks a capability as another server's tool. */
export const IMPORTED_RUNNER_PREFIX = 'mcp:';
export const isImportedTool = (c: Pick<CapabilityDefinition, 'runner'>): boolean => c.runner.startsWith(IMPORTED_RUNNER_PREFIX);

/** An unknown tool can do anything: it needs the owner's key and the owner's approval. */
export const IMPORTED_TOOL_DEFAULTS: Required<ImportedToolPolicy> = { auth: 'required', risk: 'high', approval: true };

/** The note on a tool whose input schema no validator here compiles. */
export const UNVALIDATED_NOTE = 'input schema served as given: no validator here compiles it, the upstream validates arguments';

const MAX_KEY = 128;
const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 6).toUpperCase();

/** A tool name as a key part: accents dropped, upper case, every run of characters outside [A-Z0-9] one `_`, trimmed. */
export function sanitizeToolName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return cleaned || 'TOOL';
}

/** SYSTEM_TOOLNAME; a key too long for KEY_PATTERN is cut and given a hash of the full name. */
export function importedKey(system: string, toolName: string, suffix = ''): string {
  const key = `${system}_${sanitizeToolName(toolName)}${suffix}`;
  if (key.length <= MAX_KEY) return key;
  const tail = `_${shortHash(toolName)}${suffix}`;
  return `${key.slice(0, MAX_KEY - tail.length).replace(/_+$/, '')}${tail}`;
}

/**
 * Keys for a server's tool names. Names that sanitise to one key are settled by code-point order
 * of the original names: the first keeps the plain key, each other gets `_` + a hash of its own
 * name, so a key never depends on the order the server listed its tools in.
 */
export function importedKeys(system: string, toolNames: string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of [...new Set(toolNames)].sort()) {
    let key = importedKey(system, name);
    if (taken.has(key)) key = importedKey(system, name, `_${shortHash(name)}`);
    taken.add(key);
    keys.set(name, key);
  }
  return keys;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An upstream's inputSchema as callers get it: exactly as listed, whatever its dialect. A tool
 * that lists none takes any object (MCP's minimal schema).
 */
export const inputSchemaOf = (tool: Pick<McpToolDescription, 'inputSchema'>): JsonSchema => (isObject(tool.inputSchema) ? tool.inputSchema : { type: 'object' });

/** Example arguments from the schema: a value for each required property, {} when none. */
export function exampleFor(schema: JsonSchema): Record<string, unknown> {
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  return Object.fromEntries(required.map((name) => [name, exampleValue(isObject(properties[name]) ? properties[name] : {})]));
}

function exampleValue(s: Record<string, unknown>): unknown {
  if (s['default'] !== undefined) return s['default'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum']) && s['enum'].length > 0) return s['enum'][0];
  const first = [s['anyOf'], s['oneOf']].find(Array.isArray) as unknown[] | undefined;
  if (first && isObject(first[0])) return exampleValue(first[0]);
  switch (s['type']) {
    case 'string':
      return 'example';
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return exampleFor(s);
    default:
      return null;
  }
}

export interface ImportedTools {
  definitions: CapabilityDefinition[];
  /** Tools whose input schema no validator here compiles: served as given, the upstream validates arguments. */
  simplified: string[];
  /** Tools not imported, with why (a definition too large to pin). */
  refused: Array<{ tool: string; code: string; message: string }>;
}

/** The capabilities of one server's tools/list, under its system, with auth/risk/approval from config. */
export function importTools(server: ImportedServerSettings, tools: McpToolDescription[]): ImportedTools {
  const keys = importedKeys(server.system, tools.map((t) => t.name));
  // One set of validators for the whole list: a fresh Ajv compiles its meta-schema first (~9 ms
  // against ~0.4 ms a tool), which for a server of hundreds of tools made every refresh take seconds.
  const validators = new UpstreamSchemaValidators();
  const simplified: string[] = [];
  const seen = new Set<string>();
  const definitions: CapabilityDefinition[] = [];
  const refused: ImportedTools['refused'] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) continue; // a server that lists a name twice has one tool by it
    seen.add(tool.name);
    const key = keys.get(tool.name)!;
    if (!KEY_PATTERN.test(key)) continue;
    const definitionHash = pinnableHash(tool, refused);
    if (definitionHash === undefined) continue;
    const schema = inputSchemaOf(tool);
    const unvalidated = validators.compile(schema) === undefined;
    if (unvalidated) simplified.push(tool.name);
    const policy = { ...IMPORTED_TOOL_DEFAULTS, ...server.defaults, ...server.tools?.[tool.name] };
    definitions.push({
      key,
      system: server.system,
      description: (tool.description ?? tool.title ?? '').trim() || `The ${tool.name} tool of the ${server.name} server`,
      type: 'tool',
      runner: `${IMPORTED_RUNNER_PREFIX}${server.name}`,
      inputs: schema,
      auth: policy.auth,
      risk: policy.risk,
      approval: policy.approval,
      tool: tool.name,
      // What the upstream says of its tool is kept as given: absent stays absent.
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      ...(isObject(tool.annotations) ? { annotations: tool.annotations } : {}),
      ...(isObject(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
      ...(isObject(tool._meta) ? { meta: tool._meta } : {}),
      definition_hash: definitionHash,
      example: exampleFor(schema),
      ...(unvalidated ? { limits: { notes: [UNVALIDATED_NOTE] } } : {}),
    });
  }
  return { definitions: definitions.sort((a, b) => a.key.localeCompare(b.key)), simplified, refused };
}

/** The tool's definition hash, or undefined (and the tool listed in `refused`) when it cannot be pinned. */
function pinnableHash(tool: McpToolDescription, refused: ImportedTools['refused']): string | undefined {
  try {
    return toolDefinitionHash(tool);
  } catch (err) {
    if (!SwitchyardError.is(err)) throw err;
    refused.push({ tool: tool.name, code: err.code, message: err.message });
    return undefined;
  }
}
