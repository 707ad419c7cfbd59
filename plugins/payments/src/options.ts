// plugins.payments in config: where the upstream is.
import type { JsonSchema, UpstreamAddress } from '@switchyard/core';

export interface PaymentsOptions {
  enabled?: boolean;
  upstream: { url: string; transport?: UpstreamAddress['transport']; headers?: Record<string, string> };
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    upstream: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, description: '"simulator" or the streamable HTTP URL of a real server' },
        transport: { enum: ['sse', 'streamable-http'], default: 'streamable-http' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['url'],
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
