// plugins.edge in config: where the upstream is (a real server, or "simulator").
import type { JsonSchema, UpstreamAddress } from '@switchyard/core';

export interface EdgeOptions {
  enabled?: boolean;
  upstream: { url: string; transport?: UpstreamAddress['transport']; headers?: Record<string, string> };
  simulator?: { accountId?: string };
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    upstream: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, description: '"simulator" or the SSE URL of a real server' },
        transport: { enum: ['sse', 'streamable-http'], default: 'sse' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['url'],
      additionalProperties: false,
    },
    simulator: {
      type: 'object',
      properties: { accountId: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
