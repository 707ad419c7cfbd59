// plugins.messaging in config: the upstream, and the simulator's account plan.
import type { JsonSchema, UpstreamAddress } from '@switchyard/core';

export type Plan = 'free' | 'pro' | 'enterprise';

export interface MessagingOptions {
  enabled?: boolean;
  upstream: { url: string; transport?: UpstreamAddress['transport']; headers?: Record<string, string> };
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
    simulator: {
      type: 'object',
      properties: { plan: { enum: ['free', 'pro', 'enterprise'], default: 'enterprise' } },
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
