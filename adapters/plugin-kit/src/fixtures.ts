// Fixture helpers: arguments that must run (each capability's own example) and arguments its schema must refuse.
import type { CapabilityDefinition, JsonSchema } from '@switchyard/core';

export type Fixtures = Record<string, unknown[]>;

/** Each capability's example, the call its self-description shows, as a valid fixture. */
export const examplesOf = (capabilities: CapabilityDefinition[]): Fixtures =>
  Object.fromEntries(capabilities.filter((c) => c.example !== undefined).map((c) => [c.key, [c.example]]));

const wrongType = (schema: JsonSchema | undefined): unknown => {
  const type = schema?.['type'];
  if (type === 'string') return 42;
  if (type === 'integer' || type === 'number' || type === 'boolean' || type === 'object') return 'not-a-' + String(type);
  if (type === 'array') return { not: 'an array' };
  return undefined;
};

/**
 * Arguments an object input schema must refuse, derived from it: nothing at all when something is
 * required, an unknown property when none are allowed, and a value of the wrong type per property.
 * Start from the example: `base` is a valid call the variations are made from.
 */
export function invalidFromSchema(inputs: JsonSchema, base: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const required = (inputs['required'] as string[] | undefined) ?? [];
  if (required.length) out.push({});
  if (inputs['additionalProperties'] === false) out.push({ ...base, not_in_the_schema: true });
  const properties = (inputs['properties'] as Record<string, JsonSchema> | undefined) ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    const bad = wrongType(schema);
    if (bad !== undefined) out.push({ ...base, [name]: bad });
  }
  return out;
}

/** invalidFromSchema for every capability with an object example. */
export const invalidFromSchemas = (capabilities: CapabilityDefinition[]): Fixtures =>
  Object.fromEntries(
    capabilities
      .filter((c) => typeof c.example === 'object' && c.example !== null && !Array.isArray(c.example))
      .map((c) => [c.key, invalidFromSchema(c.inputs, c.example as Record<string, unknown>)]),
  );
