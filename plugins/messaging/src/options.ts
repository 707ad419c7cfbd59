// plugins.messaging in config: the upstream, the upstream account's plan, and the simulator's settings.
import type { JsonSchema, UpstreamAddress } from '@switchyard/core';

export type Plan = 'free' | 'pro' | 'enterprise';

export interface MessagingOptions {
  enabled?: boolean;
  upstream: { url: string; transport?: UpstreamAddress['transport']; headers?: Record<string, string> };
  /** The plan of the upstream account; phone lookups need enterprise (refused plan_required otherwise). */
  plan?: Plan;
  /** The simulator's own account plan, when it should differ from `plan` (it follows `plan` otherwise). */
  simulator?: { plan?: Plan };
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    upstream: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, description: '"simulator" or the streamable HTTP URL of a real server (it carries /v4/)' },
        transport: { enum: ['sse', 'streamable-http'], default: 'streamable-http' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['url'],
      additionalProperties: false,
    },
    plan: { enum: ['free', 'pro', 'enterprise'], default: 'enterprise', description: "The upstream account's plan" },
    simulator: {
      type: 'object',
      properties: { plan: { enum: ['free', 'pro', 'enterprise'] } },
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
