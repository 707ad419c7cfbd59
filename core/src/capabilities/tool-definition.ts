// A tool's definition as its upstream lists it, and the hash that pins it. The hash covers exactly
// what callers are shown of an upstream tool: name, title, description, input and output schema,
// annotations and _meta, as the server sent them (before any adaptation of ours, so a change the
// adaptation would hide is still seen). SHA-256 of the RFC 8785 canonical JSON: two listings that
// differ only in member order or whitespace hash the same.
import { hash } from 'node:crypto';
import { canonicalJson } from '@switchyard/verifier';
import { SwitchyardError } from '../errors.js';

/** The fields of a listed tool (MCP's Tool) that the pin covers, absent ones left out. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  _meta?: unknown;
}
type McpToolDescription = ToolDefinition;

/** A definition larger than this (canonical JSON, UTF-8 bytes) is refused: no real tool needs it, and each is stored with its pin. */
export const MAX_TOOL_DEFINITION_BYTES = 256 * 1024;

const FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'] as const;

/** The pinned fields of a listed tool: anything else the server sent is not shown to callers, so it is not pinned. */
export function toolDefinition(tool: McpToolDescription): ToolDefinition {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS) if (tool[field] !== undefined) out[field] = tool[field];
  return out as unknown as ToolDefinition;
}

/** The definition's canonical JSON; tool_definition_too_large past MAX_TOOL_DEFINITION_BYTES. */
export function canonicalToolDefinition(tool: McpToolDescription): string {
  const text = canonicalJson(toolDefinition(tool));
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TOOL_DEFINITION_BYTES) {
    throw new SwitchyardError('tool_definition_too_large', `the definition of tool ${JSON.stringify(tool.name)} is ${bytes} bytes; at most ${MAX_TOOL_DEFINITION_BYTES} are pinned`, { tool: tool.name, bytes, max: MAX_TOOL_DEFINITION_BYTES });
  }
  return text;
}

/** "sha256:" + hex of the canonical JSON text of a definition. */
export const definitionHashOf = (canonicalText: string): string => `sha256:${hash('sha256', canonicalText, 'hex')}`;

/** The definition hash of a listed tool. */
export const toolDefinitionHash = (tool: McpToolDescription): string => definitionHashOf(canonicalToolDefinition(tool));

export const DEFINITION_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
